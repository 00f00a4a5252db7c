import type { Code } from "../codes/codes.js";

const BRAND = Symbol.for("@agent-bridle/core/BridleError");

/**
 * Base of every error agent-bridle throws. Carries a stable `code`; branded with a
 * `Symbol.for` key so `BridleError.isInstance` survives two installed copies of core.
 * Thrown errors are for the integrator (registry refusals, configuration and
 * programmer errors); policy refusals of a tool call are in-band denials instead.
 */
export class BridleError extends Error {
  readonly code: Code;
  readonly [BRAND] = true;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
  }

  static isInstance(value: unknown): value is BridleError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { [BRAND]?: unknown })[BRAND] === true
    );
  }
}
