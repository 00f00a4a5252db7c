/** Calling a shell function: positional parameters, a scope for `local`, `FUNCNAME`, `return`. */
import type { FunctionDefinition } from "../parse/ast-command.js";
import { runCompound } from "./compound.js";
import type { Interpreter } from "./interpreter.js";
import type { Fds } from "./io.js";
import { ReturnSignal } from "./signals.js";

export async function callFunction(
  interpreter: Interpreter,
  fn: FunctionDefinition,
  argv: readonly string[],
  fds: Fds,
): Promise<number> {
  const savedPositional = interpreter.state.positional;
  const savedLoop = interpreter.loopDepth;
  interpreter.state.positional = argv.slice(1);
  interpreter.state.scopes.push(new Map());
  interpreter.state.funcNames.push(fn.name);
  interpreter.loopDepth = 0;
  try {
    let status: number;
    try {
      status = await runCompound(interpreter, fn.body, fds);
    } catch (signal) {
      if (!(signal instanceof ReturnSignal)) throw signal;
      status = signal.status;
    }
    interpreter.state.lastStatus = status;
    if (interpreter.state.options.functrace) await interpreter.runTrap("RETURN", fds);
    return status;
  } finally {
    interpreter.state.positional = savedPositional;
    interpreter.state.scopes.pop();
    interpreter.state.funcNames.pop();
    interpreter.loopDepth = savedLoop;
  }
}
