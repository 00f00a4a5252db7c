import type { Summary } from "./stats.js";

export interface RatioResult {
  readonly kind: "ratio";
  readonly name: string;
  /** Milliseconds per call. */
  readonly subject: Summary;
  readonly baseline: Summary;
  /** subject p50 / baseline p50. */
  readonly ratio: number;
  /** The largest acceptable ratio for this run (an allowance converted). */
  readonly target: number;
  /** How the target was set, for people (`baseline + 50.00 µs per call`). */
  readonly targetLabel: string;
  readonly samples: number;
  readonly subjectIterations: number;
  readonly baselineIterations: number;
  readonly passed: boolean;
}

export interface MetricResult {
  readonly kind: "metric";
  readonly name: string;
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
  readonly limit: number;
  readonly passed: boolean;
}

export type BenchmarkResult = RatioResult | MetricResult;
