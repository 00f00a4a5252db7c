import type { Task } from "./benchmark.js";

/** A monotonic clock in milliseconds. */
export type Clock = () => number;

export const hrClock: Clock = () => Number(process.hrtime.bigint()) / 1e6;

/** Milliseconds per call, averaged over `iterations` sequential (awaited) calls. */
export async function timeBatch(task: Task, iterations: number, clock: Clock): Promise<number> {
  const start = clock();
  for (let index = 0; index < iterations; index += 1) {
    const result = task();
    if (result !== undefined) await result;
  }
  return (clock() - start) / iterations;
}

const MAX_ITERATIONS = 1 << 24;

/**
 * How many calls make one sample last about `sampleMs`, so that calls far below the
 * clock's resolution are still measured: doubles until a batch is long enough.
 */
export async function calibrate(task: Task, sampleMs: number, clock: Clock): Promise<number> {
  let iterations = 1;
  for (;;) {
    const perCall = await timeBatch(task, iterations, clock);
    const elapsed = perCall * iterations;
    if (elapsed >= sampleMs / 4 || iterations >= MAX_ITERATIONS) {
      const scaled = elapsed > 0 ? Math.round(sampleMs / perCall) : MAX_ITERATIONS;
      return Math.min(MAX_ITERATIONS, Math.max(1, scaled));
    }
    iterations *= 2;
  }
}
