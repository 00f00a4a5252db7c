import type { Denial } from "../envelope/denial.js";
import { BridleError } from "./bridle-error.js";

const DENIED_BRAND = Symbol.for("@agent-bridle/core/DeniedError");

/**
 * A refusal a tool throws before running anything (the reference's `Err(Denied)`):
 * the registry refunds the charge. Carries the same `Denial` an in-band refusal would.
 */
export class DeniedError extends BridleError {
  readonly denial: Denial;
  readonly [DENIED_BRAND] = true;

  constructor(denial: Denial) {
    super(denial.code, denial.reason);
    this.denial = denial;
  }

  static override isInstance(value: unknown): value is DeniedError {
    return (
      BridleError.isInstance(value) &&
      (value as { [DENIED_BRAND]?: unknown })[DENIED_BRAND] === true
    );
  }
}
