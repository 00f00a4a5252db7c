import { readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { ConfigurationError, NO_COVERAGE, only } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { createLandlockBackend } from "../../src/backend/landlock-backend.js";
import { createSandbox, type SandboxRunRequest } from "../../src/funnel/sandbox.js";
import { renderLauncherPolicy } from "../../src/launcher/policy.js";
import { contextFor, useTempDir } from "./helpers/funnel-context.js";

// ADR 0029: every tree under the launcher runs at the host's niceness (default 10), its
// session's scheduling group (autogroup) included, so a burst of calls cannot keep the
// host's own thread off the CPU; a program cannot take the priority back; the host's own
// niceness and group stay as they were.
const tempDir = useTempDir();
const backend = createLandlockBackend();
const root = process.getuid?.() === 0;

// Niceness, the autogroup's line, and whether raising the priority back was refused.
const PROBE = `import os
print(os.getpriority(os.PRIO_PROCESS, 0))
try:
    print(open("/proc/self/autogroup").read().split()[-1])
except OSError:
    print("none")
try:
    os.setpriority(os.PRIO_PROCESS, 0, 0)
    print("raised")
except PermissionError:
    print("refused")
print(os.getpriority(os.PRIO_PROCESS, 0))`;

async function probe(limits?: { niceness?: number }) {
  const dir = tempDir();
  const sandbox = createSandbox({ home: dir, tmpdir: dir, backend, limits });
  const cx = contextFor({ fs_read: "all", fs_write: only([dir]), exec: "all", net: "all" });
  const request: SandboxRunRequest = {
    stages: [["python3", "-c", PROBE]],
    cwd: dir,
    timeoutMs: 10_000,
    maxOutputBytes: 4096,
  };
  const outcome = await sandbox.run(cx, request, { coverage: NO_COVERAGE });
  if (outcome.kind !== "ran") throw new Error(`expected a run, got ${outcome.kind}`);
  expect(outcome.sandboxKind).toBe("landlock");
  return outcome.result.stdout.toString().trim().split("\n");
}

const hostAutogroup = () => {
  try {
    return readFileSync("/proc/self/autogroup", "utf8");
  } catch {
    return "none";
  }
};

describe.skipIf(process.platform !== "linux")("the tree's scheduling priority", () => {
  it("runs at niceness 10 by default, its own session's group too, and cannot raise it back; the host is unchanged", async () => {
    const before = { nice: getPriority(), group: hostAutogroup() };
    const [nice, group, raise, after] = await probe();
    expect(nice).toBe("10");
    // Without CAP_SYS_ADMIN the kernel rate-limits the group's write (ADR 0029).
    if (root && group !== "none") expect(group).toBe("10");
    expect(raise).toBe("refused");
    expect(after).toBe("10");
    expect({ nice: getPriority(), group: hostAutogroup() }).toEqual(before);
  });

  it("follows the host's limit, and 0 leaves the tree at the host's priority (positive control)", async () => {
    expect((await probe({ niceness: 19 }))[0]).toBe("19");
    const [nice, , raise] = await probe({ niceness: 0 });
    expect(nice).toBe(String(getPriority()));
    expect(raise).toBe(getPriority() === 0 ? "raised" : "refused");
  });

  it("refuses a niceness outside 0..19 in the policy", () => {
    const base = { fsRead: "all", fsWrite: "all", exec: "all" } as const;
    expect(renderLauncherPolicy({ ...base, nice: 10 })).toContain("\nnice 10\n");
    expect(() => renderLauncherPolicy({ ...base, nice: 20 })).toThrow(ConfigurationError);
    expect(() => renderLauncherPolicy({ ...base, nice: -1 })).toThrow(ConfigurationError);
  });
});
