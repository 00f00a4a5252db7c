import type { BenchmarkResult } from "./result.js";

/** Four significant digits; `null` for a non-finite figure (JSON has no Infinity). */
function figure(value: number): number | null {
  return Number.isFinite(value) ? Number(value.toPrecision(4)) : null;
}

/**
 * One bench line in the shapes of spec README §14:
 * `{name, subject_p50_ms, baseline_p50_ms, ratio, target}` for a time ratio,
 * `{name, metric, value, unit, limit}` for any other figure.
 */
export function toJsonLine(result: BenchmarkResult): string {
  if (result.kind === "ratio") {
    return JSON.stringify({
      name: result.name,
      subject_p50_ms: figure(result.subject.p50),
      baseline_p50_ms: figure(result.baseline.p50),
      ratio: figure(result.ratio),
      target: figure(result.target),
    });
  }
  return JSON.stringify({
    name: result.name,
    metric: result.metric,
    value: figure(result.value),
    unit: result.unit,
    limit: figure(result.limit),
  });
}
