import type { CallAuditSink, Denial, Scope } from "@agent-bridle/core";
import { admitSpawn } from "./admit-program.js";
import { buildChildEnvironment } from "./child-environment.js";
import { launchStages } from "./launch-stages.js";
import type { LaunchRequest, SpawnResult } from "./spawn-types.js";

export interface SpawnConfinedRequest extends Omit<LaunchRequest, "stages" | "env"> {
  /** As spelled; a bare program is resolved on the trusted `PATH` only. */
  readonly argv: readonly string[];
  readonly exec: Scope<string>;
  readonly audit: CallAuditSink;
  readonly toolName: string;
  readonly home: string;
  readonly tmpdir: string;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

export type SpawnConfinedOutcome =
  | { readonly kind: "ran"; readonly result: SpawnResult }
  | { readonly kind: "denied"; readonly denial: Denial }
  | { readonly kind: "not-found"; readonly program: string };

/**
 * One program through the funnel without backend selection (the mechanism is whatever
 * `wrapper` says; engines use `createSandbox().run`, which adds the backend and floor).
 * The carried coreutils entry goes through it (argv, the environment with the denylist
 * applied, exactly the descriptors the caller arranged); the bash worker's children go
 * through `spawnStreaming`.
 */
export async function spawnConfined(request: SpawnConfinedRequest): Promise<SpawnConfinedOutcome> {
  const admission = await admitSpawn({
    argv: request.argv,
    exec: request.exec,
    cwd: request.cwd,
    audit: request.audit,
    toolName: request.toolName,
  });
  if (admission.kind !== "admitted") return admission;
  const {
    argv: _argv,
    exec: _exec,
    audit: _audit,
    toolName: _tool,
    home,
    tmpdir,
    env,
    ...launch
  } = request;
  const result = await launchStages({
    ...launch,
    stages: [admission.argv],
    env: buildChildEnvironment({ home, tmpdir, callerEnv: env }),
  });
  return { kind: "ran", result };
}
