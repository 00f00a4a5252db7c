import { type Caveats, FS_AND_EXEC_COVERAGE } from "@agent-bridle/core";
import type { Backend } from "../../../src/backend/backend.js";
import { createSandbox, type SandboxRunRequest } from "../../../src/funnel/sandbox.js";
import type { SpawnResult } from "../../../src/funnel/spawn-types.js";
import { contextFor } from "./funnel-context.js";

/** Runs argv stages through the funnel under `caveats` (default top) and expects a run. */
export async function runThroughFunnel(
  stages: readonly (readonly string[])[],
  request: Partial<SandboxRunRequest> = {},
  options: { caveats?: Partial<Caveats>; backend?: Backend } = {},
): Promise<SpawnResult> {
  const sandbox = createSandbox({
    home: "/nonexistent-home",
    tmpdir: "/tmp",
    backend: options.backend,
  });
  const outcome = await sandbox.run(
    contextFor(options.caveats),
    { cwd: "/", timeoutMs: 10_000, maxOutputBytes: 1 << 20, ...request, stages },
    { coverage: FS_AND_EXEC_COVERAGE },
  );
  if (outcome.kind !== "ran") throw new Error(`expected a run, got ${outcome.kind}`);
  return outcome.result;
}
