// Public surface of @agent-bridle/shell-safe: explicit named exports only. The engine
// (`createShellTool`) and the parser of the safe subset.

export {
  DEFAULT_SHELL_SAFE_LIMITS,
  type ShellSafeInput,
  type ShellSafeLimits,
  shellSafeInputSchema,
} from "./engine/shell-input.js";
export {
  createShellTool,
  type ShellInspector,
  type ShellToolOptions,
} from "./engine/shell-tool.js";
export type {
  AndOrLink,
  AndOrList,
  Command,
  DoubleQuotedPart,
  DuplicateRedirection,
  EscapedPart,
  FileRedirection,
  GlobPart,
  LiteralPart,
  Operator,
  Pipeline,
  QuotedTextPart,
  Redirection,
  Script,
  SingleQuotedPart,
  Span,
  TildePart,
  VariablePart,
  Word,
  WordPart,
} from "./subset/ast.js";
export { checkSubset as parseScript, type ParseResult } from "./subset/check-subset.js";
export { LABELS } from "./subset/labels.js";
export { DEFAULT_PARSE_LIMITS, type ParseLimits, type ParseOptions } from "./subset/limits.js";
export type { ShellRefusal, ShellRefusalCode } from "./subset/refusal.js";
export {
  hasQuoting,
  isGlobWord,
  literalValue,
  unquotedText,
  wordVariables,
} from "./subset/word-value.js";
