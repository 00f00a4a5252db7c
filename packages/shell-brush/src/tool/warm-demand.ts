/**
 * How many pre-started workers recent load justifies (issue 20 point 3): the most calls
 * that were in flight at once during the last `windowMs`, at least one, at most the
 * host's bound. A burst raises it at once; it falls back once the burst is older than
 * the window, and the pool then lets the extra workers go.
 */
export class WarmDemand {
  #active = 0;
  /** When each in-flight count was reached (kept for one window). */
  readonly #peaks: { at: number; active: number }[] = [];

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A call began; the returned function ends it (once). */
  began(): () => void {
    this.#active += 1;
    this.#peaks.push({ at: this.now(), active: this.#active });
    this.#forget();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#active -= 1;
    };
  }

  /** Calls in flight now. */
  get active(): number {
    return this.#active;
  }

  /** Workers to keep ready: the window's peak concurrency, from 1 to `max`. */
  target(max: number): number {
    this.#forget();
    const peak = this.#peaks.reduce((most, entry) => Math.max(most, entry.active), this.#active);
    return Math.max(1, Math.min(max, peak));
  }

  #forget(): void {
    const oldest = this.now() - this.windowMs;
    while (this.#peaks.length > 0 && (this.#peaks[0] as { at: number }).at < oldest) {
      this.#peaks.shift();
    }
  }
}
