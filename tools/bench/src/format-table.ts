import type { Benchmark } from "./benchmark.js";
import { formatDuration } from "./format-duration.js";
import type { BenchmarkResult, MetricResult, RatioResult } from "./result.js";

/** Columns padded to their widest cell; the first column left-aligned, the rest right. */
export function renderColumns(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, column) => {
      widths[column] = Math.max(widths[column] ?? 0, cell.length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, column) => {
          const width = widths[column] ?? 0;
          return column === 0 ? cell.padEnd(width) : cell.padStart(width);
        })
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function verdict(passed: boolean): string {
  return passed ? "ok" : "OVER TARGET";
}

function ratioTable(results: readonly RatioResult[]): string {
  const header = ["benchmark", "subject p50", "p90", "baseline p50", "p90", "ratio", "target"];
  const rows = results.map((result) => [
    result.name,
    formatDuration(result.subject.p50),
    formatDuration(result.subject.p90),
    formatDuration(result.baseline.p50),
    formatDuration(result.baseline.p90),
    result.ratio.toPrecision(4),
    `≤ ${result.target.toPrecision(4)} (${result.targetLabel})`,
    verdict(result.passed),
  ]);
  return renderColumns([[...header, ""], ...rows]);
}

function metricTable(results: readonly MetricResult[]): string {
  const rows = results.map((result) => [
    result.name,
    result.metric,
    `${result.value} ${result.unit}`,
    `≤ ${result.limit} ${result.unit}`,
    verdict(result.passed),
  ]);
  return renderColumns([["benchmark", "metric", "value", "limit", ""], ...rows]);
}

/** The human-readable report: one table per kind, then what each benchmark measures. */
export function formatTable(
  results: readonly BenchmarkResult[],
  benchmarks: readonly Benchmark[],
): string {
  const ratios = results.filter((result): result is RatioResult => result.kind === "ratio");
  const metrics = results.filter((result): result is MetricResult => result.kind === "metric");
  const sections: string[] = [];
  if (ratios.length > 0) sections.push(ratioTable(ratios));
  if (metrics.length > 0) sections.push(metricTable(metrics));
  const notes = benchmarks
    .filter((benchmark) => results.some((result) => result.name === benchmark.name))
    .map(
      (benchmark) =>
        `${benchmark.name}: ${benchmark.description} [grant ${benchmark.grant}; ${benchmark.mode}]`,
    );
  if (notes.length > 0) sections.push(notes.join("\n"));
  return sections.join("\n\n");
}
