// Public surface of the bench harness (dev-only tool).
export { ALL_BENCHMARKS } from "./all-benchmarks.js";
export type {
  Benchmark,
  MetricBenchmark,
  MetricReading,
  RatioBenchmark,
  RatioTarget,
  Task,
} from "./benchmark.js";
export { parseArguments } from "./cli-arguments.js";
export { formatDuration } from "./format-duration.js";
export { toJsonLine } from "./format-json.js";
export { formatTable } from "./format-table.js";
export type { BenchmarkResult, MetricResult, RatioResult } from "./result.js";
export { runBenchmark } from "./run-benchmark.js";
export { RATIO_DEFAULTS, type RatioRunOptions, runRatio } from "./run-ratio.js";
export { percentile, type Summary, summarize } from "./stats.js";
export { equivalentRatio } from "./target.js";
