/**
 * The p-th percentile (0 ≤ p ≤ 100) by linear interpolation between closest ranks
 * (numpy's default): p50 of [1, 2, 3, 4] is 2.5. Does not modify `values`.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError("percentile of an empty list");
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile ${p} is outside 0..100`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lower = Math.floor(rank);
  const upper = Math.ceil(rank);
  const low = sorted[lower] ?? Number.NaN;
  const high = sorted[upper] ?? Number.NaN;
  return low + (high - low) * (rank - lower);
}

export interface Summary {
  readonly p50: number;
  readonly p90: number;
}

export function summarize(values: readonly number[]): Summary {
  return { p50: percentile(values, 50), p90: percentile(values, 90) };
}
