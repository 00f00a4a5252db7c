import type { RatioTarget } from "./benchmark.js";
import { formatDuration } from "./format-duration.js";

/** The target as a ratio for this run (an allowance depends on the measured baseline). */
export function equivalentRatio(target: RatioTarget, baselineP50Ms: number): number {
  if ("maxRatio" in target) return target.maxRatio;
  return (baselineP50Ms + target.allowanceMs) / baselineP50Ms;
}

export function describeTarget(target: RatioTarget): string {
  return "maxRatio" in target
    ? `ratio ≤ ${target.maxRatio}`
    : `baseline + ${formatDuration(target.allowanceMs)} per call`;
}
