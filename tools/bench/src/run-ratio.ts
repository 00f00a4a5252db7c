import type { RatioBenchmark } from "./benchmark.js";
import type { RatioResult } from "./result.js";
import { summarize } from "./stats.js";
import { describeTarget, equivalentRatio } from "./target.js";
import { type Clock, calibrate, hrClock, timeBatch } from "./timing.js";

export interface RatioRunOptions {
  /** Samples per side when the benchmark does not set its own. */
  readonly samples?: number;
  /** Alternating warm-up time before calibration (JIT, caches). */
  readonly warmupMs?: number;
  /** The duration one sample aims for; short calls are batched up to it. */
  readonly sampleMs?: number;
  readonly clock?: Clock;
}

export const RATIO_DEFAULTS = { samples: 40, warmupMs: 300, sampleMs: 5 } as const;

/**
 * Warm-up (alternating), calibration, then `samples` rounds of one subject sample and
 * one baseline sample each, alternating which goes first, so that drift (frequency
 * scaling, GC pressure, background load) falls on both sides alike.
 */
export async function runRatio(
  benchmark: RatioBenchmark,
  options: RatioRunOptions = {},
): Promise<RatioResult> {
  const clock = options.clock ?? hrClock;
  const samples = benchmark.samples ?? options.samples ?? RATIO_DEFAULTS.samples;
  const sampleMs = options.sampleMs ?? RATIO_DEFAULTS.sampleMs;
  const { baseline, beforeSubject } = benchmark;
  const subject = benchmark.subject;
  /** One prepared subject call (when the benchmark prepares), else the subject batched. */
  const timeSubject = async (iterations: number) => {
    if (beforeSubject === undefined) return timeBatch(subject, iterations, clock);
    await beforeSubject();
    return timeBatch(subject, 1, clock);
  };

  const warmupEnd = clock() + (options.warmupMs ?? RATIO_DEFAULTS.warmupMs);
  for (let iterations = 1; ; iterations = Math.min(iterations * 2, 1024)) {
    await timeSubject(iterations);
    await timeBatch(baseline, iterations, clock);
    if (clock() >= warmupEnd) break;
  }
  const subjectIterations = beforeSubject ? 1 : await calibrate(subject, sampleMs, clock);
  const baselineIterations = await calibrate(baseline, sampleMs, clock);

  const subjectTimes: number[] = [];
  const baselineTimes: number[] = [];
  for (let round = 0; round < samples; round += 1) {
    if (round % 2 === 0) {
      subjectTimes.push(await timeSubject(subjectIterations));
      baselineTimes.push(await timeBatch(baseline, baselineIterations, clock));
    } else {
      baselineTimes.push(await timeBatch(baseline, baselineIterations, clock));
      subjectTimes.push(await timeSubject(subjectIterations));
    }
  }

  const subjectSummary = summarize(subjectTimes);
  const baselineSummary = summarize(baselineTimes);
  const ratio = subjectSummary.p50 / baselineSummary.p50;
  const target = equivalentRatio(benchmark.target, baselineSummary.p50);
  return {
    kind: "ratio",
    name: benchmark.name,
    subject: subjectSummary,
    baseline: baselineSummary,
    ratio,
    target,
    targetLabel: describeTarget(benchmark.target),
    samples,
    subjectIterations,
    baselineIterations,
    passed: ratio <= target,
  };
}
