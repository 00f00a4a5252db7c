// Public surface of @agent-bridle/core: explicit named exports only.
export { CODE_DOCS, CODES, type Code, isCode } from "./codes/codes.js";
export {
  createDenial,
  type Denial,
  type DenialKind,
  DenialKindSchema,
  DenialSchema,
} from "./envelope/denial.js";
export { BridleError } from "./errors/bridle-error.js";
export { ConfigurationError } from "./errors/configuration-error.js";
export { DeniedError } from "./errors/denied-error.js";
export { InvalidArgumentsError } from "./errors/invalid-arguments-error.js";
export { RegistryError, type RegistryErrorCode } from "./errors/registry-error.js";
export { ToolFailedError } from "./errors/tool-failed-error.js";
