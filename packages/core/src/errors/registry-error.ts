import type { Code } from "../codes/codes.js";
import { BridleError } from "./bridle-error.js";

export type RegistryErrorCode = Extract<
  Code,
  "TOOL_NOT_FOUND" | "BUDGET_EXHAUSTED" | "GENERATION_INVALID" | "REGISTRY_CLOSED"
>;

/** A registry-level refusal: unknown tool, spent budget, wrong generation, closed registry. Never charged. */
export class RegistryError extends BridleError {
  declare readonly code: RegistryErrorCode;

  constructor(code: RegistryErrorCode, message: string) {
    super(code, message);
  }
}
