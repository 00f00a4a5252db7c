import type { Denial } from "../envelope/denial.js";
import { BridleError } from "./bridle-error.js";

/**
 * A refusal a tool throws before running anything (the reference's `Err(Denied)`):
 * the registry refunds the charge. Carries the same `Denial` an in-band refusal would.
 */
export class DeniedError extends BridleError {
  readonly denial: Denial;

  constructor(denial: Denial) {
    super(denial.code, denial.reason);
    this.denial = denial;
  }
}
