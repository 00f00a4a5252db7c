import { BridleError } from "./bridle-error.js";

/** The tool was admitted, ran, and failed (I/O or internal error). The call stays charged. */
export class ToolFailedError extends BridleError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("TOOL_FAILED", message, options);
  }
}
