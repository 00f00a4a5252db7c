import { homedir, tmpdir } from "node:os";
import { defaultPathPolicy, FS_AND_EXEC_COVERAGE, Gate, Registry, top } from "@agent-bridle/core";
import { createSandbox, NONE_BACKEND } from "@agent-bridle/sandbox";
import { createShellTool } from "@agent-bridle/shell-safe";
import type { RatioBenchmark } from "../benchmark.js";

// The safe engine's own cost for `echo hi` (dispatch, parse, cwd judge, admission with the
// exec identity check, floor pre-check, envelope) against spawning `/bin/echo hi` straight
// through the same funnel with the same grant and backend: only the engine differs.
const home = tmpdir();
const shell = createShellTool({ home, tmpdir: home, baseDir: home, backend: NONE_BACKEND });
const pathPolicy = defaultPathPolicy({ platform: "linux", home: homedir() });
const registry = Registry.builder().tool(shell).pathPolicy(pathPolicy).build();
const grant = registry.mintGrant(top());
const sandbox = createSandbox({ backend: NONE_BACKEND, home, tmpdir: home });
const cx = new Gate({ pathPolicy }).authorize({ name: "bench", required: top() }, top());
const request = {
  stages: [["/bin/echo", "hi"]],
  cwd: home,
  timeoutMs: 60_000,
  maxOutputBytes: 1 << 20,
};

export const shellSafeEcho: RatioBenchmark = {
  kind: "ratio",
  name: "shell-safe-echo",
  description: "safe engine `echo hi` via Registry.dispatch vs `/bin/echo hi` through the funnel",
  grant: "top()",
  mode: "shell-safe engine vs sandbox funnel, `none` backend, one process each",
  target: { maxRatio: 1.2 },
  samples: 40,
  subject: async () => {
    await registry.dispatch("shell", { cmd: "echo hi" }, grant);
  },
  baseline: async () => {
    const outcome = await sandbox.run(cx, request, { coverage: FS_AND_EXEC_COVERAGE });
    if (outcome.kind !== "ran") throw new Error(`shell-safe-echo: baseline ${outcome.kind}`);
  },
};
