/** A duration given in milliseconds, in the unit that keeps 3–4 significant digits. */
export function formatDuration(milliseconds: number): string {
  if (!Number.isFinite(milliseconds)) return String(milliseconds);
  const absolute = Math.abs(milliseconds);
  if (absolute >= 1000) return `${(milliseconds / 1000).toPrecision(4)} s`;
  if (absolute >= 1) return `${milliseconds.toPrecision(4)} ms`;
  if (absolute >= 0.001) return `${(milliseconds * 1000).toPrecision(4)} µs`;
  return `${(milliseconds * 1e6).toPrecision(4)} ns`;
}
