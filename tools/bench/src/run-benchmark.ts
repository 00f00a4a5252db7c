import type { Benchmark } from "./benchmark.js";
import type { BenchmarkResult } from "./result.js";
import { type RatioRunOptions, runRatio } from "./run-ratio.js";

/** Runs one benchmark between its setup and teardown (teardown runs even on failure). */
export async function runBenchmark(
  benchmark: Benchmark,
  options: RatioRunOptions = {},
): Promise<BenchmarkResult> {
  await benchmark.setup?.();
  try {
    if (benchmark.kind === "ratio") return await runRatio(benchmark, options);
    const reading = await benchmark.measure();
    return {
      kind: "metric",
      name: benchmark.name,
      metric: reading.metric,
      value: reading.value,
      unit: reading.unit,
      limit: reading.limit,
      passed: reading.value <= reading.limit,
    };
  } finally {
    await benchmark.teardown?.();
  }
}
