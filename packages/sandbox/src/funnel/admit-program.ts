import { isAbsolute, resolve } from "node:path";
import {
  type CallAuditSink,
  checkExec,
  type Denial,
  isBareProgram,
  resolveOnSearchPath,
  type Scope,
} from "@agent-bridle/core";

export interface AdmitProgramRequest {
  readonly argv: readonly string[];
  readonly exec: Scope<string>;
  /** Base for a relative spelling with a separator (admitted only under `exec all`). */
  readonly cwd: string;
  readonly audit: CallAuditSink;
  readonly toolName: string;
  /**
   * The engine's own programs, fixed at its construction and never chosen by a request
   * (the host engine's shell): admitted by absolute path without the grant's exec check,
   * and audited as such. What they run is still bounded by the backend.
   */
  readonly runtimeExecutables?: readonly string[] | undefined;
}

export type ProgramAdmission =
  | { readonly kind: "admitted"; readonly argv: readonly string[] }
  | { readonly kind: "denied"; readonly denial: Denial }
  | { readonly kind: "not-found"; readonly spelled: string };

async function resolveSpelling(spelled: string, cwd: string): Promise<string | undefined> {
  if (isBareProgram(spelled)) return resolveOnSearchPath(spelled);
  return isAbsolute(spelled) ? spelled : resolve(cwd, spelled);
}

/**
 * Resolves a stage's program (a bare name only on the trusted `PATH`), runs core's exec
 * identity check on the spelled and resolved program, and records the decision with
 * the argv to the audit sink as a `spawn` event. The admitted argv has the resolved
 * absolute program as `argv[0]`: that is what is spawned.
 */
export async function admitProgram(request: AdmitProgramRequest): Promise<ProgramAdmission> {
  const spelled = request.argv[0] ?? "";
  if (isAbsolute(spelled) && request.runtimeExecutables?.includes(spelled)) {
    const argv = Object.freeze([...request.argv]);
    request.audit.record({ type: "spawn", tool: request.toolName, argv, decision: "admitted" });
    return { kind: "admitted", argv };
  }
  const resolved = spelled === "" ? undefined : await resolveSpelling(spelled, request.cwd);
  const decision = await checkExec(request.exec, { spelled, resolved });
  if (!decision.ok) {
    request.audit.record({
      type: "spawn",
      tool: request.toolName,
      argv: [...request.argv],
      decision: "denied",
      code: decision.denial.code,
    });
    return { kind: "denied", denial: decision.denial };
  }
  const program = decision.value.resolved ?? resolved;
  if (program === undefined) return { kind: "not-found", spelled };
  const argv = Object.freeze([program, ...request.argv.slice(1)]);
  request.audit.record({ type: "spawn", tool: request.toolName, argv, decision: "admitted" });
  return { kind: "admitted", argv };
}

/** A single-program spawn's admission, in the shape the spawn entries return refusals. */
export type SpawnAdmission =
  | { readonly kind: "admitted"; readonly argv: readonly string[] }
  | { readonly kind: "denied"; readonly denial: Denial }
  | { readonly kind: "not-found"; readonly program: string };

export async function admitSpawn(request: AdmitProgramRequest): Promise<SpawnAdmission> {
  const admission = await admitProgram(request);
  return admission.kind === "not-found"
    ? { kind: "not-found", program: admission.spelled }
    : admission;
}

export type StagesAdmission =
  | { readonly kind: "admitted"; readonly stages: readonly (readonly string[])[] }
  | Exclude<ProgramAdmission, { kind: "admitted" }>;

/** Admits every stage in order; the first refusal (or unknown program) stops admission. */
export async function admitStages(
  stages: readonly (readonly string[])[],
  request: Omit<AdmitProgramRequest, "argv">,
): Promise<StagesAdmission> {
  const admitted: (readonly string[])[] = [];
  for (const argv of stages) {
    const admission = await admitProgram({ ...request, argv });
    if (admission.kind !== "admitted") return admission;
    admitted.push(admission.argv);
  }
  return { kind: "admitted", stages: admitted };
}
