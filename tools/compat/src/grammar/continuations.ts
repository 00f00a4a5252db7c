/**
 * Blanks and line continuations: bash removes `\<newline>` before it reads a token, so a
 * continuation may stand between tokens, inside a word, inside double quotes and inside
 * a two-character operator (`&\<newline>&` is `&&`).
 */
import type { Grammar } from "./grammar.js";

const BLANKS = [" ", " ", " ", " ", "  ", "\t", " \\\n", "\\\n ", " \\\n\t "];

/** The blank between two tokens. */
export function blank(grammar: Grammar): string {
  return grammar.random.pick(BLANKS);
}

/** A continuation between two pieces of a word, or nothing. */
export function inWord(grammar: Grammar): string {
  return grammar.random.chance(0.08) ? "\\\n" : "";
}

/** A two-character operator, sometimes split by a continuation. */
export function operator(grammar: Grammar, text: string): string {
  if (text.length !== 2 || !grammar.random.chance(0.1)) return text;
  return `${text[0]}\\\n${text[1]}`;
}

/**
 * A newline token: the bodies of the here-documents waiting for it follow it, so after
 * this text the next line is free.
 */
export function newline(grammar: Grammar): string {
  const comment = grammar.random.chance(0.15)
    ? ` #${grammar.random.pick(["", " note", " a 'b' \"c", " $(x) `y` ${z", " <<EOF", "#;|&"])}`
    : "";
  const bodies = grammar.pending.join("");
  grammar.pending = [];
  return `${comment}\n${bodies}`;
}

/**
 * A command separator: `;` or a newline (never a newline where none may stand).
 *
 * Excluded: `;` after a here-document inside a substitution. bash 5.2 keeps a command
 * substitution as its re-printed text and runs that, and the re-print of
 * `$(cat <<e || x; y …)` drops the `;` (`cat <<e || x y`), so bash itself then means
 * something else; a newline there is printed right.
 */
export function separator(grammar: Grammar): string {
  const heredocWaits =
    grammar.substitution && grammar.heredocCount > grammar.heredocsBeforeSubstitution;
  if (grammar.inline || (!heredocWaits && grammar.random.chance(0.6)))
    return grammar.random.pick(["; ", ";", " ; "]);
  return newline(grammar) + grammar.random.pick(["", "  ", "\t"]);
}
