/**
 * The `DEBUG` trap: run before each simple command, `for`, `case`, `(( ))` and `[[ ]]`
 * with `BASH_COMMAND` set to the command's text. Functions and subshells see it only
 * under `set -T` (or `shopt -s extdebug`). Under `extdebug` a trap that returns 1 skips
 * the command, and 2 inside a function returns from it.
 */
import type { Command } from "@agent-bridle/bash";
import type { ExecContext } from "../exec-context.js";
import type { Fds } from "../io/io.js";
import { ReturnSignal } from "../signals.js";

/** Loops run the trap once per iteration (the loop calls it), not once at the start. */
function isLoop(command: Command): boolean {
  return command.type === "CompoundCommand" && command.body.type === "For";
}

function traced(command: Command): boolean {
  if (command.type === "SimpleCommand") return true;
  if (command.type === "FunctionDefinition") return false;
  const kind = command.body.type;
  return (
    kind === "For" ||
    kind === "ArithmeticFor" ||
    kind === "Case" ||
    kind === "ArithmeticCommand" ||
    kind === "Conditional" ||
    kind === "Select"
  );
}

/** Run the DEBUG trap before `command`; `skip` when `extdebug` says not to run it. */
export async function runDebugTrap(
  interpreter: ExecContext,
  command: Command,
  fds: Fds,
  iteration = false,
  text?: string,
): Promise<"run" | "skip"> {
  const state = interpreter.state;
  if (interpreter.inTrap || !traced(command) || isLoop(command) !== iteration) return "run";
  const extdebug = state.shopt.has("extdebug");
  if (state.funcNames.length > 0 && !state.options.functrace && !extdebug) return "run";
  setBashCommand(interpreter, text ?? interpreter.code.text.slice(command.start, command.end));
  const status = await interpreter.runTrap("DEBUG", fds);
  if (!extdebug || status === 0) return "run";
  if (status === 2 && state.funcNames.length > 0) throw new ReturnSignal(state.lastStatus);
  return "skip";
}

/** `BASH_COMMAND`: the command being run (kept for the traps that read it). */
export function setBashCommand(interpreter: ExecContext, text: string): void {
  const state = interpreter.state;
  const variable = state.lookupRaw("BASH_COMMAND");
  if (variable === undefined || !variable.readonly) state.set("BASH_COMMAND", text);
}
