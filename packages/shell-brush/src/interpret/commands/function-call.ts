/**
 * Calling a shell function: positional parameters, a scope for `local`, a call-stack frame
 * (`FUNCNAME`, `BASH_SOURCE`, `BASH_LINENO`; `LINENO` counts in the defining file), `return`.
 */
import type { FunctionDefinition } from "@agent-bridle/bash";
import type { ExecContext } from "../exec-context.js";
import type { Fds } from "../io/io.js";
import { ReturnSignal } from "../signals.js";
import { runCompound } from "./compound.js";

export async function callFunction(
  interpreter: ExecContext,
  fn: FunctionDefinition,
  argv: readonly string[],
  fds: Fds,
): Promise<number> {
  const savedPositional = interpreter.state.positional;
  const savedLoop = interpreter.loopDepth;
  interpreter.state.positional = argv.slice(1);
  interpreter.state.scopes.push(new Map());
  interpreter.state.funcNames.push(fn.name);
  const origin = interpreter.functionOrigin(fn);
  interpreter.state.pushFrame({
    name: fn.name,
    source: origin.source,
    callLine: interpreter.line,
    ...(interpreter.state.shopt.has("extdebug") ? { args: argv.slice(1) } : {}),
  });
  const saved = interpreter.enterSource(origin);
  interpreter.loopDepth = 0;
  // A RETURN trap is not inherited unless traced (`set -T`): the function sees only one it
  // sets itself, which then runs when it returns (bash).
  const traps = interpreter.state.traps;
  const inheritsReturn = interpreter.state.options.functrace;
  const outerReturn = traps.get("RETURN");
  if (!inheritsReturn) traps.delete("RETURN");
  try {
    let status: number;
    try {
      const state = interpreter.state;
      if (state.traps.has("DEBUG") && (state.options.functrace || state.shopt.has("extdebug")))
        await interpreter.runTrap("DEBUG", fds);
      status = await runCompound(interpreter, fn.body, fds);
    } catch (signal) {
      if (!(signal instanceof ReturnSignal)) throw signal;
      status = signal.status;
    }
    if (traps.has("RETURN")) await interpreter.runTrap("RETURN", fds);
    interpreter.state.lastStatus = status;
    return status;
  } finally {
    if (!inheritsReturn && !traps.has("RETURN") && outerReturn !== undefined)
      traps.set("RETURN", outerReturn);
    interpreter.state.positional = savedPositional;
    interpreter.state.scopes.pop();
    interpreter.state.funcNames.pop();
    interpreter.state.popFrame();
    interpreter.leaveSource(saved);
    interpreter.loopDepth = savedLoop;
  }
}
