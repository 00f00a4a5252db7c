import { type Caveats, parseCaveats } from "../caveats/caveats.js";
import { countLimit } from "../caveats/count-bound.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { BudgetCell } from "./budget-cell.js";

const MINT = Symbol("grant-mint");

/**
 * Caveats plus an unforgeable call budget seeded from `max_calls`. The budget lives in
 * the grant: clones share it, two mints of equal caveats do not, and re-dispatching a
 * spent grant through another (or a rebuilt) registry does not regenerate it. Only
 * `mintGrant` creates one.
 */
export class Grant {
  readonly #caveats: Caveats;
  readonly #budget: BudgetCell;

  constructor(token: typeof MINT, caveats: Caveats, budget: BudgetCell) {
    if (token !== MINT)
      throw new TypeError("Grant is minted by mintGrant() or Registry.mintGrant()");
    this.#caveats = caveats;
    this.#budget = budget;
    Object.freeze(this);
  }

  get caveats(): Caveats {
    return this.#caveats;
  }

  /** Calls left (`Infinity` for unlimited). */
  get remainingCalls(): number {
    return this.#budget.remaining;
  }

  /** A second handle on the same budget. */
  clone(): Grant {
    return new Grant(MINT, this.#caveats, this.#budget);
  }

  /** @internal used by the registry to charge and refund. */
  static budgetOf(grant: Grant): BudgetCell {
    return grant.#budget;
  }
}

/**
 * A grant for these caveats with a fresh budget. The type admits `Caveats` only (build
 * them with `caveats({...})`, `top()` or `parseCaveats(json)`); the value is checked again
 * at run time for callers without types, and anything else throws `ConfigurationError`
 * (`CONFIG_INVALID_CAVEATS`) naming each wrong or missing field: never a grant of "all".
 */
export function mintGrant(caveats: Caveats): Grant {
  const checked = checkedCaveats(caveats);
  return new Grant(MINT, checked, new BudgetCell(countLimit(checked.max_calls)));
}

function checkedCaveats(value: unknown): Caveats {
  try {
    return parseCaveats(value);
  } catch (error) {
    if (!ConfigurationError.isInstance(error)) throw error;
    throw new ConfigurationError(
      `mintGrant needs Caveats (build them with caveats({...}) or parseCaveats(json)); ${error.message}`,
      { code: "CONFIG_INVALID_CAVEATS", cause: error },
    );
  }
}
