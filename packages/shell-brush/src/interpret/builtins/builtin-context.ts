/** What a builtin gets: the interpreter, its state and the command's descriptors. */
import type { Interpreter } from "../interpreter.js";
import type { Fds, InputSource, OutputSink } from "../io/io.js";
import type { ShellState } from "../state/state.js";

export interface BuiltinContext {
  readonly interpreter: Interpreter;
  readonly state: ShellState;
  readonly fds: Fds;
  readonly stdout: OutputSink;
  readonly stderr: OutputSink;
  readonly stdin: InputSource;
  readonly inLoop: boolean;
  error(message: string): void;
}

export type Builtin = (context: BuiltinContext, args: string[]) => Promise<number> | number;

/** A numeric argument (`exit 3`, `shift 2`); null (reported) when it is not a number. */
export function numberArg(
  context: BuiltinContext,
  command: string,
  arg: string | undefined,
  fallback: number,
): number | null {
  if (arg === undefined) return fallback;
  if (!/^\s*[-+]?[0-9]+\s*$/.test(arg)) {
    context.error(`${command}: ${arg}: numeric argument required`);
    return null;
  }
  return Number(arg);
}
