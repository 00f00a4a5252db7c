import { type Caveats, caveats, defaultPathPolicy, Gate, top } from "@agent-bridle/core";
import { NOWHERE_HOME } from "@agent-bridle-tools/test-kit";
import { createGatedAccess } from "../../src/worker/gated-access.js";
import { runGated } from "./recording-gate.js";

/**
 * The worker's own gate (core's judge and mediated opens) over a context minted for
 * `partial`, with the default path policy: what the interpreter meets in a real call.
 */
export function judgedAccess(partial: Partial<Caveats>) {
  const cx = new Gate({
    pathPolicy: defaultPathPolicy({ platform: "linux", home: NOWHERE_HOME }),
  }).authorize({ name: "shell", required: top() }, caveats({ ...top(), ...partial }));
  return createGatedAccess(cx);
}

/** Runs `source` in `cwd` through `judgedAccess(partial)`: output, status, denials. */
export async function runJudged(source: string, cwd: string, partial: Partial<Caveats>) {
  const result = await runGated(source, cwd, judgedAccess(partial));
  return {
    stdout: result.stdout,
    stderr: result.stderr,
    status: result.status,
    denials: result.denials.map((denial) => ({ code: denial.code, reason: denial.reason })),
  };
}
