import { statSync } from "node:fs";
import { join } from "node:path";
import { caveats, only, RunEnvelopeSchema } from "@agent-bridle/core";
import { locateLauncher, probeLauncher, type ResourceLimits } from "@agent-bridle/sandbox";
import {
  ALLOCATE_6_GIB,
  ALLOCATE_16_MIB,
  forkLoop,
  useTempDirs,
  WRITE_2_MIB,
} from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { useBrushRegistries } from "./brush-registries.js";

// Linux only: the worker and its programs under the real launcher, with limits the host
// set, run into for real. The worker is inside the call's memory cgroup and process count
// itself, and writes redirect targets itself.
const linux = process.platform === "linux";
const launcher = linux ? await locateLauncher() : undefined;
const memoryCgroup = launcher ? (await probeLauncher(launcher)).memory_limit === "cgroup" : false;
const tempDir = useTempDirs("brush-limits-", "each");
const brush = useBrushRegistries();

async function run(cmd: string, resourceLimits?: ResourceLimits) {
  const dir = tempDir();
  const { registry } = brush({ kernel: true, ...(resourceLimits ? { resourceLimits } : {}) });
  const grant = registry.mintGrant(
    caveats({ fs_read: "all", fs_write: only([dir]), exec: "all", net: "all" }),
  );
  const envelope = RunEnvelopeSchema.parse(
    await registry.dispatch("shell", { cmd, cwd: dir }, grant),
  );
  expect(envelope.sandbox_kind).toBe("landlock");
  return { envelope, dir, limits: envelope.denials?.map((denial) => [denial.code, denial.target]) };
}

describe.skipIf(!linux)("bash engine: the limits of a call, reported when hit (Linux)", () => {
  it.skipIf(!memoryCgroup)(
    "memory: a program over a 64 MiB tree is killed and the script goes on; LIMIT_EXCEEDED memory (needs the memory cgroup: skipped where the launcher probe says memory_limit is not cgroup)",
    async () => {
      const { envelope, limits } = await run(`python3 -c '${ALLOCATE_6_GIB}'; echo after $?`, {
        treeMemoryBytes: 64 << 20,
      });
      expect(envelope).toMatchObject({ exit_code: 0, stdout: "after 137\n", denied: true });
      expect(limits).toEqual([["LIMIT_EXCEEDED", "memory"]]);
      expect(envelope.denials?.[0]?.reason).toContain("64 MiB");
    },
  );

  it.skipIf(!memoryCgroup)(
    "memory: the worker itself over the limit ends the call with what it wrote, 137 and LIMIT_EXCEEDED memory (needs the memory cgroup: skipped where the launcher probe says memory_limit is not cgroup)",
    async () => {
      const { envelope, limits } = await run(
        'echo partial; s=xxxxxxxxxxxxxxxx; while :; do s="$s$s"; done',
        { treeMemoryBytes: 96 << 20 },
      );
      expect(envelope).toMatchObject({ exit_code: 137, stdout: "partial\n", timed_out: false });
      expect(limits).toEqual([["LIMIT_EXCEEDED", "memory"]]);
    },
  );

  it("file_size: a 2 MiB write under a 1 MiB limit fails; LIMIT_EXCEEDED file_size, the file stops at 1 MiB", async () => {
    // The interpreter writes the redirect target itself (Node gets EFBIG, not SIGXFSZ).
    const { envelope, dir, limits } = await run(WRITE_2_MIB, { fileSizeBytes: 1 << 20 });
    expect(envelope.exit_code).not.toBe(0);
    expect(limits).toEqual([["LIMIT_EXCEEDED", "file_size"]]);
    expect(statSync(join(dir, "f")).size).toBeLessThanOrEqual(1 << 20);
    // A program that writes the file itself is killed by SIGXFSZ (it is not PID 1).
    const killed = await run("dd if=/dev/zero of=g bs=1M count=2 2>/dev/null; echo after $?", {
      fileSizeBytes: 1 << 20,
    });
    expect(killed.envelope.stdout).toBe("after 153\n");
    expect(killed.limits).toEqual([["LIMIT_EXCEEDED", "file_size"]]);
    expect(statSync(join(killed.dir, "g")).size).toBeLessThanOrEqual(1 << 20);
  });

  it("processes: a fork loop under 16 processes is refused forks; LIMIT_EXCEEDED processes", async () => {
    const { envelope, limits } = await run(`python3 -c '${forkLoop(64, 5)}'; echo after $?`, {
      maxProcesses: 16,
    });
    expect(envelope.stdout).toBe("after 1\n");
    expect(envelope.stderr).toContain("BlockingIOError");
    expect(limits).toEqual([["LIMIT_EXCEEDED", "processes"]]);
  });

  it("under the default limits the same small programs run with no denial", async () => {
    const cmd = `${WRITE_2_MIB} && python3 -c '${ALLOCATE_16_MIB}' && python3 -c '${forkLoop(8, 0)}' && echo ok`;
    const { envelope, dir } = await run(cmd);
    const { exit_code, stdout, stderr, denials } = envelope;
    expect({ exit_code, stdout, stderr, denials }).toEqual({
      exit_code: 0,
      stdout: "ok\n",
      stderr: "",
      denials: undefined,
    });
    expect(statSync(join(dir, "f")).size).toBe(2 << 20);
  });
});
