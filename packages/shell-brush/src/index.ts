// Public surface of @agent-bridle/shell-brush: the bash parser and its AST, and the in-process interpreter core.

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
export {
  ArithmeticError,
  type ArithmeticScope,
  evaluateArithmetic,
} from "./interpret/arithmetic.js";
export type {
  ExternalDescriptor,
  ExternalRequest,
  ExternalResult,
  ExternalRunner,
} from "./interpret/external.js";
export {
  Interpreter,
  type InterpreterOptions,
  type RunResult,
  runBash,
} from "./interpret/interpreter.js";
export {
  expandPathname,
  type GlobAccess,
  type GlobOptions,
} from "./interpret/pathname-expansion.js";
export { matchPattern } from "./interpret/pattern.js";
export type { RedirectOpenMode, ShellAccess } from "./interpret/shell-access.js";
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
export { type BrushInput, brushInputSchema } from "./tool/brush-input.js";
export {
  type BrushShellTool,
  type BrushShellToolOptions,
  createBrushShellTool,
} from "./tool/brush-shell-tool.js";
export { BRUSH_COVERAGE } from "./tool/launch-worker.js";
export { workerFilePath } from "./tool/worker-file.js";
