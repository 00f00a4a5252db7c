// Public surface of @agent-bridle/shell-brush: the in-process bash interpreter and the
// engine that runs it in a confined worker. The bash language itself (parser, AST,
// inspectShell, patterns) is @agent-bridle/bash's.

export {
  Interpreter,
  type InterpreterOptions,
  type RunResult,
  runBash,
} from "./interpret/interpreter.js";
export type {
  ExternalDescriptor,
  ExternalRequest,
  ExternalResult,
  ExternalRunner,
} from "./interpret/io/external.js";
export type { RedirectOpenMode, ShellAccess } from "./interpret/io/shell-access.js";
export { type BrushInput, brushInputSchema } from "./tool/brush-input.js";
export {
  type BrushShellTool,
  type BrushShellToolOptions,
  createBrushShellTool,
} from "./tool/brush-shell-tool.js";
export { BRUSH_COVERAGE } from "./tool/launch-worker.js";
export { workerFilePath } from "./tool/worker-file.js";
