import { statSync } from "node:fs";
import { join } from "node:path";
import { only } from "@agent-bridle/core";
import {
  createLandlockBackend,
  locateLauncher,
  probeLauncher,
  type ResourceLimits,
} from "@agent-bridle/sandbox";
import {
  ALLOCATE_6_GIB,
  ALLOCATE_16_MIB,
  forkLoop,
  WRITE_2_MIB,
} from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { createShellTool } from "../../src/index.js";
import { asRun, HOME, registryWith, useTempDirs } from "./helpers.js";

// Linux only: each pipeline under the real launcher, with limits the host set, run into
// for real. Every stage is PID 1 of its launcher's namespace, so a write past the
// file-size limit fails with EFBIG instead of killing the writer: the engine checks the
// redirect targets it opened.
const linux = process.platform === "linux";
const launcher = linux ? await locateLauncher() : undefined;
const memoryCgroup = launcher ? (await probeLauncher(launcher)).memory_limit === "cgroup" : false;
const tempDir = useTempDirs();

async function run(cmd: string, resourceLimits?: ResourceLimits) {
  const dir = tempDir();
  const tool = createShellTool({
    home: HOME,
    tmpdir: "/tmp",
    baseDir: dir,
    backend: createLandlockBackend(),
    ...(resourceLimits ? { resourceLimits } : {}),
  });
  const { dispatch } = registryWith(tool);
  const envelope = asRun(await dispatch({ cmd }, { fs_write: only([dir]) }));
  expect(envelope.sandbox_kind).toBe("landlock");
  return { envelope, dir, limits: envelope.denials?.map((denial) => [denial.code, denial.target]) };
}

describe.skipIf(!linux)("shell-safe: the limits of a call, reported when hit (Linux)", () => {
  it.skipIf(!memoryCgroup)(
    "memory: a 6 GiB allocation under a 64 MiB tree is killed; LIMIT_EXCEEDED memory (needs the memory cgroup: skipped where the launcher probe says memory_limit is not cgroup)",
    async () => {
      const { envelope, limits } = await run(`python3 -c '${ALLOCATE_6_GIB}'; echo after`, {
        treeMemoryBytes: 64 << 20,
      });
      expect(envelope).toMatchObject({ exit_code: 0, stdout: "after\n", denied: true });
      expect(limits).toEqual([["LIMIT_EXCEEDED", "memory"]]);
      expect(envelope.stderr).not.toContain("bridle-launch");
      const alone = await run(`python3 -c '${ALLOCATE_6_GIB}'`, { treeMemoryBytes: 64 << 20 });
      expect(alone.envelope.exit_code).toBe(137);
      expect(alone.limits).toEqual([["LIMIT_EXCEEDED", "memory"]]);
    },
  );

  it("file_size: a 2 MiB write under a 1 MiB limit fails; LIMIT_EXCEEDED file_size, the file stops at 1 MiB", async () => {
    const { envelope, dir, limits } = await run(WRITE_2_MIB, { fileSizeBytes: 1 << 20 });
    expect(envelope.exit_code).toBe(1);
    expect(envelope.stderr).toContain("File too large");
    expect(limits).toEqual([["LIMIT_EXCEEDED", "file_size"]]);
    expect(statSync(join(dir, "f")).size).toBeLessThanOrEqual(1 << 20);
    // The same through a pipeline: the last stage writes the file.
    const piped = await run("head -c 2M /dev/zero | cat > f", { fileSizeBytes: 1 << 20 });
    expect(piped.limits).toEqual([["LIMIT_EXCEEDED", "file_size"]]);
  });

  it("processes: a fork loop under 16 processes is refused forks; LIMIT_EXCEEDED processes", async () => {
    const { envelope, limits } = await run(`python3 -c '${forkLoop(64, 5)}'`, {
      maxProcesses: 16,
    });
    expect(envelope.exit_code).toBe(1);
    expect(envelope.stderr).toContain("BlockingIOError");
    expect(limits).toEqual([["LIMIT_EXCEEDED", "processes"]]);
  });

  it("under the default limits the same small programs run with no denial", async () => {
    const cmd = `${WRITE_2_MIB} && python3 -c '${ALLOCATE_16_MIB}' && python3 -c '${forkLoop(8, 0)}' && echo ok`;
    const { envelope, dir } = await run(cmd);
    expect(envelope).toMatchObject({ exit_code: 0, stdout: "ok\n", stderr: "" });
    expect(envelope.denials).toBeUndefined();
    expect(statSync(join(dir, "f")).size).toBe(2 << 20);
  });
});
