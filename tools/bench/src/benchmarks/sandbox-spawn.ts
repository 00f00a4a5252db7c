import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { caveats, defaultPathPolicy, Gate, NO_COVERAGE, only, top } from "@agent-bridle/core";
import { createLandlockBackend, createSandbox } from "@agent-bridle/sandbox";
import type { RatioBenchmark } from "../benchmark.js";

// `/bin/true` through the confined-spawn funnel with the Linux launcher (Landlock
// engaged by `fs_write only[<temp dir>]`: policy on a pipe, Landlock, seccomp, PID
// namespace reaper, process-group kill) vs a plain `child_process.spawn` with piped
// output. See README.md for the target.

let directory = "";
let subject: () => Promise<void> = async () => {
  throw new Error("sandbox-spawn: setup did not run");
};

function plainSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/true", []);
    child.once("error", reject);
    child.once("close", () => resolve());
  });
}

export const sandboxSpawn: RatioBenchmark = {
  kind: "ratio",
  name: "sandbox-spawn",
  description:
    "/bin/true through the funnel with the launcher (Landlock) vs plain child_process.spawn",
  grant: "fs_write only[<temp dir>]",
  mode: "sandbox funnel, landlock backend (bridle-launch), one stage",
  target: { maxRatio: 2 },
  samples: 20,
  setup: async () => {
    const backend = createLandlockBackend();
    if (!(await backend.probe()).available) {
      throw new Error("sandbox-spawn: the launcher is not available on this host");
    }
    directory = mkdtempSync(join(tmpdir(), "bench-sandbox-"));
    const sandbox = createSandbox({ backend, home: directory, tmpdir: directory });
    const gate = new Gate({
      pathPolicy: defaultPathPolicy({ platform: "linux", home: homedir() }),
    });
    const cx = gate.authorize(
      { name: "bench", required: top() },
      caveats({ fs_read: "all", fs_write: only([directory]), exec: "all", net: "all" }),
    );
    const request = {
      stages: [["/bin/true"]],
      cwd: directory,
      timeoutMs: 10_000,
      maxOutputBytes: 1 << 20,
    };
    subject = async () => {
      const outcome = await sandbox.run(cx, request, { coverage: NO_COVERAGE });
      if (outcome.kind !== "ran" || outcome.sandboxKind !== "landlock") {
        throw new Error(`sandbox-spawn: expected a landlock run, got ${outcome.kind}`);
      }
    };
  },
  teardown: () => {
    if (directory) rmSync(directory, { recursive: true, force: true });
  },
  subject: () => subject(),
  baseline: plainSpawn,
};
