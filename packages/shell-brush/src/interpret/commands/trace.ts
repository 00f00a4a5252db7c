/** `set -x`: each expanded command on the trace descriptor after `PS4`. */
import type { ExecContext } from "../exec-context.js";
import { type Fds, sinkOf, WriteError } from "../io/io.js";

function traceQuote(word: string): string {
  if (word === "") return "''";
  if (/^[A-Za-z0-9_./=:,+@%^{}~-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, "'\\''")}'`;
}

function traceAssignment(text: string): string {
  const equals = text.indexOf("=");
  return `${text.slice(0, equals + 1)}${traceQuote(text.slice(equals + 1))}`;
}

/** Write one trace line (`assignment`: `name=value` words, the value quoted). */
export function trace(
  interpreter: ExecContext,
  fds: Fds,
  words: readonly string[],
  assignment = false,
): void {
  const state = interpreter.state;
  if (!state.options.xtrace) return;
  const ps4 = state.get("PS4") ?? "+ ";
  const prefix = ps4.slice(0, 1).repeat(interpreter.traceLevel) + ps4.slice(1);
  const traceFd = Number(state.get("BASH_XTRACEFD") ?? "2");
  try {
    sinkOf(fds, Number.isInteger(traceFd) && fds.has(traceFd) ? traceFd : 2).write(
      `${prefix}${assignment ? words.map(traceAssignment).join(" ") : words.map(traceQuote).join(" ")}\n`,
    );
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
  }
}

/** Write one trace line of literal text (a `for` header). */
export function traceText(interpreter: ExecContext, fds: Fds, text: string): void {
  const state = interpreter.state;
  if (!state.options.xtrace) return;
  const ps4 = state.get("PS4") ?? "+ ";
  const prefix = ps4.slice(0, 1).repeat(interpreter.traceLevel) + ps4.slice(1);
  try {
    sinkOf(fds, 2).write(`${prefix}${text}\n`);
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
  }
}
