import { BridleError } from "./bridle-error.js";

/** Arguments that fail the tool's input schema; the message names the field and the limit. Never charged. */
export class InvalidArgumentsError extends BridleError {
  readonly field: string;

  constructor(field: string, message: string, options?: { cause?: unknown }) {
    super("INVALID_ARGUMENTS", message, options);
    this.field = field;
  }
}
