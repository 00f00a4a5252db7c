import { availableParallelism } from "node:os";

/**
 * How many pre-started workers recent load justifies (issue 20 point 3): the most calls
 * that were in flight at once during the last `windowMs`, at least one, at most the
 * host's bound. A burst raises it at once; it falls back once the burst is older than
 * the window, and the pool then lets the extra workers go.
 *
 * Calls issued back to back are one in flight at a time, yet each would wait for the
 * worker started after the previous one: a call that found its worker still starting
 * (`starved`) asks for one more, up to the cores that can start workers side by side.
 */
export class WarmDemand {
  #active = 0;
  /** When each in-flight count was reached (kept for one window). */
  readonly #peaks: { at: number; active: number }[] = [];
  /** When a call waited for a worker still starting (kept for one window). */
  readonly #starved: number[] = [];

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly cores: number = availableParallelism(),
  ) {}

  /** A call had to wait for its worker to finish starting. */
  starved(): void {
    this.#starved.push(this.now());
  }

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

  /**
   * Workers to keep ready: the window's peak concurrency, or one more for each call that
   * waited for its worker (at most the cores), from 1 to `max`.
   */
  target(max: number): number {
    this.#forget();
    const peak = this.#peaks.reduce((most, entry) => Math.max(most, entry.active), this.#active);
    const paced = Math.min(this.cores, 1 + this.#starved.length);
    return Math.max(1, Math.min(max, Math.max(peak, paced)));
  }

  #forget(): void {
    const oldest = this.now() - this.windowMs;
    while (this.#peaks.length > 0 && (this.#peaks[0] as { at: number }).at < oldest) {
      this.#peaks.shift();
    }
    while (this.#starved.length > 0 && (this.#starved[0] as number) < oldest) this.#starved.shift();
  }
}
