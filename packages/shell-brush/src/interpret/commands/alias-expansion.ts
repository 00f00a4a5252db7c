/**
 * Alias expansion (under `shopt -s expand_aliases`): a simple command whose first word is
 * an unquoted alias name is run again from its source text with the alias's value in
 * place; a value ending in a space makes the next word a candidate too. An alias is not
 * expanded inside its own expansion. Aliases that expand to reserved words or open
 * compound commands are not supported: the script is parsed before it runs.
 */
import type { SimpleCommand } from "@agent-bridle/bash";
import type { ExecContext } from "../exec-context.js";

function aliasName(interpreter: ExecContext, word: SimpleCommand["words"][number]): string | null {
  if (word.type !== "Word" || word.parts.length !== 1) return null;
  const part = word.parts[0];
  if (part?.type !== "Literal") return null;
  const value = interpreter.state.aliases.get(part.value);
  return value === undefined || interpreter.expandingAliases.has(part.value) ? null : part.value;
}

/** The command's text with its aliases expanded, and the names used; null when none apply. */
export function expandAliases(
  interpreter: ExecContext,
  command: SimpleCommand,
): { text: string; names: string[] } | null {
  const state = interpreter.state;
  if (!state.shopt.has("expand_aliases") || state.aliases.size === 0) return null;
  const source = interpreter.code.text;
  let text = "";
  let position = command.start;
  const names: string[] = [];
  for (const word of command.words) {
    const name = aliasName(interpreter, word);
    if (name === null) break;
    const value = state.aliases.get(name) ?? "";
    text += source.slice(position, word.start) + value;
    position = word.end;
    names.push(name);
    if (!value.endsWith(" ")) break;
  }
  if (names.length === 0) return null;
  return { text: text + source.slice(position, command.end), names };
}
