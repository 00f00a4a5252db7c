import type { Caveats } from "../caveats/caveats.js";
import { isRestricted } from "../caveats/scope.js";
import type { AppliedBackend } from "./applied-backend.js";
import { backendBound } from "./backend-bound.js";
import type { EngineCoverage } from "./engine-coverage.js";

/**
 * What holds a restricted `exec` axis when the engine checks no program itself (ADR 0024).
 * `execute_rules`: the backend's kernel rules on `execve` alone (Landlock's execute right,
 * Seatbelt's `process-exec`, AppContainer's child-process block). The report's strength
 * for such an axis is the backend's (reference §10.2: `interceptor` under Landlock because
 * of the `ld.so` trampoline); this names the mechanism, so a result does not read as if an
 * interceptor ran.
 */
export type ExecVia = "execute_rules";

/**
 * `execute_rules` when `exec` is restricted, the engine has no exec check of its own and
 * the applied backend bounds the axis with its execute rules; otherwise `undefined` (the
 * engine's own check holds the axis, or nothing does and the report says `advisory`).
 */
export function execViaOf(
  caveats: Caveats,
  backend: AppliedBackend,
  coverage: EngineCoverage,
): ExecVia | undefined {
  if (!isRestricted(caveats.exec) || coverage.exec) return undefined;
  switch (backend.kind) {
    case "landlock":
    case "seatbelt":
    case "app_container":
      return backendBound("exec", caveats, backend) === undefined ? undefined : "execute_rules";
    // No backend of these kinds exists in this port; their bound would be the programs
    // present in the root or the VM, not execute rules. Say nothing rather than guess.
    case "minimal_rootfs":
    case "micro_vm":
    case "none":
      return undefined;
  }
}
