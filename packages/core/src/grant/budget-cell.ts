/**
 * A call budget shared by a grant and its clones. JavaScript runs one callback at a
 * time, so a synchronous compare-and-decrement is atomic: N concurrent dispatches on
 * `at_most(k)` admit exactly k.
 */
export class BudgetCell {
  #remaining: number;
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
    this.#remaining = limit;
  }

  /** Takes one call if any is left. */
  tryTake(): boolean {
    if (this.#remaining <= 0) return false;
    this.#remaining -= 1;
    return true;
  }

  /** Gives back a call taken for a refusal that ran nothing. */
  refund(): void {
    this.#remaining = Math.min(this.#limit, this.#remaining + 1);
  }

  get remaining(): number {
    return this.#remaining;
  }
}
