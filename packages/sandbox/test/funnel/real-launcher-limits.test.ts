import { statSync } from "node:fs";
import { join } from "node:path";
import { NO_COVERAGE, only } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { createLandlockBackend } from "../../src/backend/landlock-backend.js";
import { DEFAULT_RESOURCE_LIMITS, type ResourceLimits } from "../../src/backend/resource-limits.js";
import { createSandbox, type SandboxRunRequest } from "../../src/funnel/sandbox.js";
import type { LaunchHold, SpawnResult } from "../../src/funnel/spawn-types.js";
import { locateLauncher } from "../../src/launcher/locate.js";
import { probeLauncher } from "../../src/launcher/probe.js";
import { contextFor, useTempDir } from "./helpers/funnel-context.js";

// Limits the real launcher applies, and how the funnel reports the ones a tree ran into:
// the launcher's trailer (memory, processes) taken off stderr, a SIGXFSZ death. Linux only.
const linux = process.platform === "linux";
const backend = createLandlockBackend();
const binary = linux ? await locateLauncher() : undefined;
const probe = binary ? await probeLauncher(binary) : undefined;
const memoryCgroup = probe?.memory_limit === "cgroup";
const tempDir = useTempDir();

const ALLOCATE = "b = bytearray(6 * 1024 ** 3)";
const FORK_LOOP = [
  "import os, time",
  "for i in range(64):",
  "    if os.fork() == 0:",
  "        time.sleep(5)",
  "        os._exit(0)",
].join("\n");

async function run(
  limits: ResourceLimits,
  script: string,
  extra: Partial<SandboxRunRequest> = {},
): Promise<SpawnResult> {
  const dir = tempDir();
  const sandbox = createSandbox({ home: "/nonexistent-home", tmpdir: "/tmp", backend, limits });
  const outcome = await sandbox.run(
    contextFor({ fs_write: only([dir]) }),
    {
      cwd: dir,
      timeoutMs: 20_000,
      maxOutputBytes: 1 << 16,
      stages: [["bash", "--norc", "--noprofile", "-c", script]],
      ...extra,
    },
    { coverage: NO_COVERAGE },
  );
  if (outcome.kind !== "ran") throw new Error(`expected a run, got ${outcome.kind}`);
  expect(outcome).toMatchObject({ sandboxKind: "landlock", limits: { ...limits } });
  return outcome.result;
}

describe("the limits a host configures", () => {
  it("are the defaults with the host's over them; a limit given as undefined is off", () => {
    const make = (limits?: ResourceLimits) =>
      createSandbox({ home: "/nonexistent-home", tmpdir: "/tmp", ...(limits ? { limits } : {}) });
    expect(make().limits).toEqual(DEFAULT_RESOURCE_LIMITS);
    expect(DEFAULT_RESOURCE_LIMITS).toEqual({
      maxProcesses: 512,
      treeMemoryBytes: 4 * 1024 ** 3,
      fileSizeBytes: 1024 ** 3,
      openFiles: 4096,
      privateTmpBytes: 512 * 1024 ** 2,
      interpreterWrittenBytes: 1024 ** 3,
      niceness: 10,
    });
    expect(make({ maxProcesses: 16 }).limits).toEqual({
      ...DEFAULT_RESOURCE_LIMITS,
      maxProcesses: 16,
    });
    expect(make({ treeMemoryBytes: undefined }).limits.treeMemoryBytes).toBeUndefined();
    expect(Object.isFrozen(make().limits)).toBe(true);
  });
});

describe.skipIf(!linux)("limits the launcher applies, reported by the funnel", () => {
  it.skipIf(!memoryCgroup)(
    "memory: a tree over treeMemoryBytes loses a process and says so (needs the memory cgroup: skipped where the launcher probe says memory_limit is not cgroup)",
    async () => {
      const result = await run(
        { treeMemoryBytes: 64 << 20 },
        `python3 -c '${ALLOCATE}'; echo after $?`,
      );
      expect(result.stdout.toString()).toBe("after 137\n");
      expect(result.limitsExceeded).toEqual(["memory"]);
      expect(result.stderr.toString()).not.toContain("bridle-launch");
    },
  );

  it("processes: a fork loop over maxProcesses is refused forks, and says so", async () => {
    const result = await run({ maxProcesses: 16 }, `python3 -c '${FORK_LOOP}'`);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.toString()).toContain("BlockingIOError");
    expect(result.stderr.toString()).not.toContain("bridle-launch");
    expect(result.limitsExceeded).toEqual(["processes"]);
  });

  it("file_size: a write past fileSizeBytes kills the writer with SIGXFSZ; the file stops at the limit", async () => {
    const result = await run({ fileSizeBytes: 1 << 20 }, "head -c 2M /dev/zero > f");
    expect(result.exitCode).toBe(153);
    expect(result.limitsExceeded).toEqual(["file_size"]);
    expect(statSync(join(tempDir(), "f")).size).toBe(1 << 20);
  });

  it("file_size: a writer that ignores SIGXFSZ (python) gets EFBIG, the script goes on, and the limit is still reported", async () => {
    const write = `import os\nfd = os.open("g", os.O_WRONLY | os.O_CREAT, 0o644)\ntry:\n    os.write(fd, bytes(2 << 20))\n    os.write(fd, bytes(1))\nexcept OSError as e:\n    print(e.errno)`;
    const result = await run({ fileSizeBytes: 1 << 20 }, `python3 -c '${write}'; echo after $?`);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.toString()).toBe("27\nafter 0\n"); // EFBIG
    expect(result.limitsExceeded).toEqual(["file_size"]);
    expect(result.stderr.toString()).not.toContain("bridle-launch");
    expect(statSync(join(tempDir(), "g")).size).toBeLessThanOrEqual(1 << 20);
  });

  it("takes the trailer off a stderr merged into stdout too", async () => {
    const result = await run({ maxProcesses: 16 }, `python3 -c '${FORK_LOOP}' 2>&1`, {
      stageStdio: [{ stderr: "stdout" }],
    });
    expect(result.stdout.toString()).toContain("BlockingIOError");
    expect(result.stdout.toString()).not.toContain("bridle-launch");
    expect(result.limitsExceeded).toEqual(["processes"]);
  });

  it.skipIf(!memoryCgroup)(
    "a run ended by its hold's end() still hears from the launcher (needs the memory cgroup: skipped where the launcher probe says memory_limit is not cgroup)",
    async () => {
      let hold: LaunchHold | undefined;
      let seen = "";
      const result = await run(
        { treeMemoryBytes: 64 << 20 },
        `python3 -c '${ALLOCATE}'; echo done; sleep 30`,
        {
          onLaunched: (given) => {
            hold = given;
          },
          observer: {
            onOutput: (_id, _stream, chunk) => {
              seen += Buffer.from(chunk).toString();
              if (seen.includes("done")) hold?.end();
            },
          },
        },
      );
      expect(result).toMatchObject({ cancelled: false, timedOut: false, exitCode: 137 });
      expect(result.limitsExceeded).toEqual(["memory"]);
      expect(result.elapsedMs).toBeLessThan(10_000);
    },
  );

  it("under the default limits the same small programs run with nothing to report", async () => {
    const small = "b = bytearray(16 * 1024 ** 2)";
    const forks = FORK_LOOP.replace("range(64)", "range(8)").replace("time.sleep(5)", "pass");
    const result = await run(
      {},
      `head -c 2M /dev/zero > f && python3 -c '${small}' && python3 -c '${forks}' && echo ok`,
    );
    expect(result.stdout.toString()).toBe("ok\n");
    expect(result.stderr.toString()).toBe("");
    expect(result.limitsExceeded).toEqual([]);
    expect(statSync(join(tempDir(), "f")).size).toBe(2 << 20);
  });
});
