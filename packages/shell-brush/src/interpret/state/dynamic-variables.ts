/**
 * The variables whose value bash computes on every read (`RANDOM`, `SECONDS`,
 * `BASH_SUBSHELL`, `SHELLOPTS`, …). Each is an ordinary variable of the global scope with a
 * `dynamic` getter that `ShellState.lookupRaw` calls; `unset` removes it, and with it the
 * behaviour, as in bash.
 */
import { randomInt } from "node:crypto";
import { OPTION_NAMES } from "./shell-options.js";
import type { DynamicValue, ShellState, Variable } from "./state.js";

/** `SHELLOPTS`: the `set -o` options that are on, colon-separated, in name order. */
export function shellOptions(state: ShellState): string {
  return OPTION_NAMES.filter((name) => state.options[name]).join(":");
}

/** `BASHOPTS`: the `shopt` options that are on, in name order. */
export function bashOptions(state: ShellState): string {
  return [...state.shopt].sort().join(":");
}

function seconds(state: ShellState): string {
  return String(Math.floor((Date.now() - state.startedAt) / 1000));
}

function epochRealtime(): string {
  const micros = BigInt(Date.now()) * 1000n + BigInt(Math.floor(performance.now() * 1000) % 1000);
  const text = micros.toString().padStart(7, "0");
  return `${text.slice(0, -6)}.${text.slice(-6)}`;
}

/** The computed variables, with the attributes bash gives them. */
const DYNAMIC: readonly [string, DynamicValue, string][] = [
  ["RANDOM", () => String(Math.floor(Math.random() * 32768)), "i"],
  ["SRANDOM", () => String(randomInt(0, 2 ** 32)), "i"],
  ["SECONDS", seconds, ""],
  ["EPOCHSECONDS", () => String(Math.floor(Date.now() / 1000)), ""],
  ["EPOCHREALTIME", epochRealtime, ""],
  ["BASHPID", (state) => String(state.pid + state.subshellLevel), "i"],
  ["BASH_SUBSHELL", (state) => String(state.subshellLevel), ""],
  ["SHELLOPTS", shellOptions, "r"],
  ["BASHOPTS", bashOptions, "r"],
  ["LINENO", (state) => String(state.currentLine()), ""],
  ["DIRSTACK", (state) => [state.cwd, ...state.dirStack], "a"],
  ["_", (state) => state.lastArgument, ""],
];

/** Put the computed variables into a new shell's global scope. */
export function setDynamicVariables(
  state: ShellState,
  make: (value: string | null) => Variable,
): void {
  const global = state.scopes[0] as Map<string, Variable>;
  for (const [name, getter, flags] of DYNAMIC) {
    if (global.has(name) && name !== "SHELLOPTS" && name !== "BASHOPTS") continue;
    const variable = make(flags.includes("a") ? null : "");
    if (flags.includes("a")) variable.array = new Map();
    variable.dynamic = getter;
    variable.integer = flags.includes("i");
    variable.readonly = flags.includes("r");
    global.set(name, variable);
  }
}
