import {
  type AppliedBackend,
  type Caveats,
  type EnforcementFloor,
  type EnforcementReport,
  type EngineCoverage,
  effectiveSandboxKind,
  enforcementReport,
  type FloorShortfall,
  isUnbridled,
  type SandboxKind,
  unenforceableAxis,
} from "@agent-bridle/core";
import type { Backend } from "./backend.js";
import { hostAllowList } from "./host-allow-list.js";
import { NONE_BACKEND } from "./none-backend.js";

export interface BackendSelection {
  /** The backend that will be applied (the `none` backend when nothing engages). */
  readonly backend: Backend;
  readonly sandboxKind: SandboxKind;
  /** What the report is computed from: the kind and ABI actually applied. */
  readonly applied: AppliedBackend;
  readonly report: EnforcementReport;
  /** Set when a restricted axis falls below the floor: refuse, spawn nothing. */
  readonly shortfall: FloorShortfall | undefined;
  readonly unbridled: boolean;
}

/**
 * Chooses the backend for one call and checks the floor before anything spawns: the
 * available backend when these caveats engage it (core `effectiveSandboxKind`), else
 * `none`; the report is core's function of (effective caveats, applied backend, the
 * engine's L2 coverage). Unbridled: no mechanism, no floor refusal, never `kernel`.
 */
export async function selectBackend(
  available: Backend,
  caveats: Caveats,
  coverage: EngineCoverage,
  floor: EnforcementFloor,
): Promise<BackendSelection> {
  if (isUnbridled()) {
    const applied: AppliedBackend = { kind: "none" };
    const report = enforcementReport(caveats, applied, coverage);
    return {
      backend: NONE_BACKEND,
      sandboxKind: "none",
      applied,
      report,
      shortfall: undefined,
      unbridled: true,
    };
  }
  const probe = await available.probe();
  const landlockAbi = probe.landlockAbi;
  const kind = probe.available
    ? effectiveSandboxKind(available.kind, caveats, {
        ...(landlockAbi === undefined ? {} : { landlockAbi }),
        ...(probe.netProxy === true ? { netProxy: true } : {}),
      })
    : "none";
  const backend = kind === "none" ? NONE_BACKEND : available;
  const applied: AppliedBackend =
    kind === "landlock"
      ? {
          kind,
          landlockAbi: landlockAbi ?? 3,
          execRules: caveats.exec !== "all",
          netProxy: probe.netProxy === true && hostAllowList(caveats) !== undefined,
        }
      : { kind };
  const report = enforcementReport(caveats, applied, coverage);
  return {
    backend,
    sandboxKind: kind,
    applied,
    report,
    shortfall: unenforceableAxis(caveats, report, floor),
    unbridled: false,
  };
}
