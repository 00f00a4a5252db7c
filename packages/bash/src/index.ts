// Public surface of @agent-bridle/bash: the bash language, shared by both shell engines.
// The parser and its AST, the non-executing inspector (`inspectShell`), patterns and
// pathname expansion (file-system access injected), brace expansion, arithmetic and the
// byte-text helpers. No dependencies and no I/O.

export { inspectShell } from "./inspect/inspect-shell.js";
export { ShellInspectionError } from "./inspect/inspection-error.js";
export {
  type ConstructKind,
  type DescendantExec,
  type InspectedCommand,
  type InspectedConstruct,
  type InspectedRedirect,
  MAX_INSPECTION_DEPTH,
  MAX_INSPECTION_SOURCE_BYTES,
  type RedirectOperation,
  SHELL_INSPECTION_SCHEMA_VERSION,
  type ShellInspection,
} from "./inspect/types.js";
export type {
  AndOr,
  ArithmeticCommand,
  ArithmeticForCommand,
  ArrayElement,
  ArrayLiteral,
  Assignment,
  BraceGroup,
  CaseCommand,
  CaseItem,
  Command,
  Compound,
  CompoundCommand,
  ConditionalCommand,
  ForCommand,
  FunctionDefinition,
  Heredoc,
  IfClause,
  IfCommand,
  List,
  LoopVariable,
  Pipeline,
  Redirect,
  RedirectOperator,
  Script,
  SelectCommand,
  SimpleCommand,
  Statement,
  Subshell,
  WhileCommand,
} from "./parse/ast-command.js";
export type {
  ConditionalBinary,
  ConditionalExpression,
  ConditionalGroup,
  ConditionalLogical,
  ConditionalNot,
  ConditionalUnary,
  ConditionalWord,
} from "./parse/ast-conditional.js";
export type {
  AnsiCQuoted,
  Arithmetic,
  ArithmeticExpansion,
  CommandSubstitution,
  DoubleQuoted,
  Escaped,
  ExtGlob,
  Literal,
  LocaleQuoted,
  ParameterExpansion,
  ParameterOperation,
  ProcessSubstitution,
  SingleQuoted,
  Span,
  Word,
  WordFlags,
  WordPart,
} from "./parse/ast-word.js";
export { type BashSyntaxError, type ParseBashResult, parseBash } from "./parse/parse-bash.js";
export { type AstNode, forEachNode } from "./parse/walk.js";
export { decodeAnsiC } from "./text/ansi-c.js";
export { ANSI_C_ESCAPES, BACKSLASH_ESCAPES } from "./text/backslash-escapes.js";
export {
  byteLength,
  canonicalShellText,
  decodeShellBytes,
  encodeShellText,
  fromByteChars,
  isAsciiText,
  shellByte,
  sliceBytes,
  toByteChars,
} from "./text/shell-bytes.js";
export {
  ArithmeticError,
  type ArithmeticScope,
  evaluateArithmetic,
} from "./words/arithmetic.js";
export { expandBraces } from "./words/braces.js";
export {
  expandPathname,
  type GlobAccess,
  type GlobEntryStats,
  type GlobOptions,
} from "./words/pathname-expansion.js";
export {
  escapePattern,
  hasGlob,
  matchPattern,
  patternSource,
  unescapePattern,
} from "./words/pattern.js";
export { plainNumber } from "./words/plain-number.js";
