/**
 * At most `limit` calls run at once; up to `maxWaiting` more wait their turn in order.
 * A waiter whose signal aborts leaves the queue.
 */
export class CallLimiter {
  readonly #limit: number;
  readonly #maxWaiting: number;
  #running = 0;
  readonly #waiting: { resolve: () => void; reject: (reason: unknown) => void }[] = [];

  constructor(limit: number, maxWaiting: number) {
    this.#limit = limit;
    this.#maxWaiting = maxWaiting;
  }

  /** Resolves to a release function, or `undefined` when the queue is full. */
  async acquire(signal: AbortSignal): Promise<(() => void) | undefined> {
    signal.throwIfAborted();
    if (this.#running < this.#limit) {
      this.#running++;
      return this.#releaser();
    }
    if (this.#waiting.length >= this.#maxWaiting) return undefined;
    await new Promise<void>((resolve, reject) => {
      const entry = {
        resolve: () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        const index = this.#waiting.indexOf(entry);
        if (index !== -1) this.#waiting.splice(index, 1);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(entry);
    });
    return this.#releaser();
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter; the running count is unchanged.
      if (next) next.resolve();
      else this.#running--;
    };
  }
}
