import { describe, expect, it } from "vitest";
import type { MetricBenchmark, RatioBenchmark, RatioTarget } from "../src/benchmark.js";
import { runBenchmark } from "../src/run-benchmark.js";
import { runRatio } from "../src/run-ratio.js";

/** A fake clock: the subject "takes" 5 ms per call and the baseline 1 ms. */
function fixture(target: RatioTarget) {
  let now = 0;
  const calls: string[] = [];
  const benchmark: RatioBenchmark = {
    kind: "ratio",
    name: "fake",
    description: "fake",
    grant: "none",
    mode: "fake clock",
    target,
    samples: 4,
    subject: () => {
      now += 5;
      calls.push("s");
    },
    baseline: async () => {
      now += 1;
      calls.push("b");
    },
  };
  return { benchmark, calls, options: { warmupMs: 0, sampleMs: 20, clock: () => now } };
}

/** ["s","s","b"] → ["s2","b1"]. */
function runs(calls: readonly string[]): string[] {
  const result: Array<{ label: string; count: number }> = [];
  for (const label of calls) {
    const last = result.at(-1);
    if (last?.label === label) last.count += 1;
    else result.push({ label, count: 1 });
  }
  return result.map(({ label, count }) => `${label}${count}`);
}

describe("runRatio", () => {
  it("reports per-call p50/p90 of each side and their ratio", async () => {
    const { benchmark, options } = fixture({ maxRatio: 4 });
    const result = await runRatio(benchmark, options);
    expect(result).toMatchObject({
      subject: { p50: 5, p90: 5 },
      baseline: { p50: 1, p90: 1 },
      ratio: 5,
      target: 4,
      passed: false,
      samples: 4,
      subjectIterations: 4,
      baselineIterations: 20,
    });
  });

  it("converts an allowance into the equivalent ratio for the run", async () => {
    const { benchmark, options } = fixture({ allowanceMs: 10 });
    const result = await runRatio(benchmark, options);
    expect(result).toMatchObject({ ratio: 5, target: 11, passed: true });
  });

  it("interleaves the samples, alternating which side goes first", async () => {
    const { benchmark, calls, options } = fixture({ maxRatio: 10 });
    await runRatio(benchmark, options);
    // Four rounds of (4 subject calls, 20 baseline calls): s b | b s | s b | b s.
    expect(runs(calls).slice(-5)).toEqual(["s4", "b40", "s8", "b40", "s4"]);
  });
});

describe("runBenchmark", () => {
  it("runs teardown after setup even when the benchmark throws", async () => {
    const events: string[] = [];
    const failing: MetricBenchmark = {
      kind: "metric",
      name: "failing",
      description: "throws",
      grant: "none",
      mode: "none",
      setup: () => {
        events.push("setup");
      },
      teardown: () => {
        events.push("teardown");
      },
      measure: () => Promise.reject(new Error("boom")),
    };
    await expect(runBenchmark(failing)).rejects.toThrow("boom");
    expect(events).toEqual(["setup", "teardown"]);
  });

  it("passes a metric at its limit and fails it above", async () => {
    const metric = (value: number): MetricBenchmark => ({
      kind: "metric",
      name: "heap",
      description: "heap",
      grant: "none",
      mode: "none",
      measure: async () => ({ metric: "heap_growth", value, unit: "MiB", limit: 16 }),
    });
    expect(await runBenchmark(metric(16))).toMatchObject({ passed: true, value: 16 });
    expect(await runBenchmark(metric(16.5))).toMatchObject({ passed: false });
  });
});
