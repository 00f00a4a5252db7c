/** One timed call; awaited when it returns a promise. */
export type Task = () => Promise<void> | void;

/**
 * The largest acceptable subject/baseline ratio, either fixed or as an absolute
 * allowance per call over the baseline. An allowance is reported as the equivalent
 * ratio for the run: (baseline p50 + allowance) / baseline p50 (spec README §14).
 */
export type RatioTarget = { readonly maxRatio: number } | { readonly allowanceMs: number };

interface BenchmarkBase {
  /** kebab-case; the CLI argument that selects it. */
  readonly name: string;
  readonly description: string;
  /** The authority the subject runs under (for example `top()`), documented in README.md. */
  readonly grant: string;
  /** How it runs: in-process, through the sandbox funnel, with which backend… */
  readonly mode: string;
  readonly setup?: () => Promise<void> | void;
  readonly teardown?: () => Promise<void> | void;
}

/** Times `subject` against `baseline` in the same process run, interleaved. */
export interface RatioBenchmark extends BenchmarkBase {
  readonly kind: "ratio";
  readonly target: RatioTarget;
  readonly subject: Task;
  readonly baseline: Task;
  /**
   * Untimed, before every subject call (the subject then runs one call per sample): for
   * a state the subject must start from, such as a warm worker that is ready.
   */
  readonly beforeSubject?: Task;
  /** Samples per side (default: the runner's). */
  readonly samples?: number;
}

/** A figure other than a time ratio (for example heap growth in MiB). */
export interface MetricReading {
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
  /** The largest acceptable value. */
  readonly limit: number;
}

export interface MetricBenchmark extends BenchmarkBase {
  readonly kind: "metric";
  readonly measure: () => Promise<MetricReading>;
}

export type Benchmark = RatioBenchmark | MetricBenchmark;
