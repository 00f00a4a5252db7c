import type { Caveats } from "../caveats/caveats.js";
import { isRestricted } from "../caveats/scope.js";
import type { AppliedBackend } from "./applied-backend.js";
import { type AxisEnforcement, ENFORCED_AXES, strongerEnforcement } from "./axis-enforcement.js";
import { backendBound } from "./backend-bound.js";
import type { EnforcementReport } from "./enforcement-report.js";
import type { EngineCoverage } from "./engine-coverage.js";

/**
 * The per-axis report, a pure function of (effective caveats, backend actually applied,
 * the engine's own L2 coverage). Only restricted axes appear. Each is the stronger of
 * the backend's bound and `interceptor` when the engine checks the axis itself;
 * otherwise `advisory`. A `none` backend never yields `kernel`.
 */
export function enforcementReport(
  caveats: Caveats,
  backend: AppliedBackend,
  coverage: EngineCoverage,
): EnforcementReport {
  const report: { -readonly [K in keyof EnforcementReport]: AxisEnforcement } = {};
  for (const axis of ENFORCED_AXES) {
    if (!isRestricted(caveats[axis])) continue;
    const own: AxisEnforcement = coverage[axis] ? "interceptor" : "advisory";
    const bound = backendBound(axis, caveats, backend);
    report[axis] = bound === undefined ? own : strongerEnforcement(bound, own);
  }
  return Object.freeze(report);
}
