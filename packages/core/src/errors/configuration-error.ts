import type { Code } from "../codes/codes.js";
import { BridleError } from "./bridle-error.js";

/** A malformed grant or option: the host's mistake, never silently widened to "all". */
export class ConfigurationError extends BridleError {
  constructor(
    message: string,
    options?: { code?: Extract<Code, `CONFIG_${string}`>; cause?: unknown },
  ) {
    super(options?.code ?? "CONFIG_INVALID_OPTION", message, options);
  }
}
