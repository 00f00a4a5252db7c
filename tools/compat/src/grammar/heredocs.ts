// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source.
/**
 * Here-documents and here-strings: `<<`, `<<-` (leading tabs stripped), delimiters bare
 * and quoted in every way (a quoted one makes the body literal), bodies with expansions,
 * escapes and line continuations. The body is queued on the grammar and written after
 * the next newline token (`continuations.newline`).
 */
import type { Grammar } from "./grammar.js";

const DELIMITERS = ["EOF", "END", "X_1", "e"];
const LINE_PIECES = [
  "text",
  " spaced  out ",
  "$x",
  "${y:-d}",
  "$(echo hi)",
  "`echo b`",
  "$((1 + 2))",
  "\\$x",
  "\\\\",
  '\\"',
  '"q"',
  "'s'",
  "a\\b",
  "#not a comment",
  "}",
  ")",
  "EOFX",
  "$",
];

function quotedDelimiter(grammar: Grammar, delimiter: string): string {
  const { random } = grammar;
  return random.pick([
    `'${delimiter}'`,
    `"${delimiter}"`,
    `\\${delimiter}`,
    `${delimiter.slice(0, 1)}"${delimiter.slice(1)}"`,
    `${delimiter.slice(0, 1)}''${delimiter.slice(1)}`,
  ]);
}

/** One line of a body with its newline; `last` lines never end with a continuation. */
function bodyLine(grammar: Grammar, stripTabs: boolean, last: boolean): string {
  const { random } = grammar;
  const tabs = stripTabs ? random.pick(["", "\t", "\t\t"]) : "";
  const text = random.repeat(1, 3, () => random.pick(LINE_PIECES)).join("");
  // A continuation joins the next line (bash removes it from an unquoted body); on the
  // last line it would join the delimiter line.
  const continued = !last && random.chance(0.1) ? "\\" : "";
  return `${tabs}${text}${continued}\n`;
}

/** `<<EOF`, `<<-'END'`, …: the operator and delimiter word, with its body queued. */
export function heredoc(grammar: Grammar): string {
  const { random } = grammar;
  const delimiter = random.pick(DELIMITERS);
  const stripTabs = random.chance(0.3);
  const quoted = random.chance(0.4);
  const word = quoted ? quotedDelimiter(grammar, delimiter) : delimiter;
  const count = random.int(0, 3);
  const body = Array.from({ length: count }, (_, index) =>
    bodyLine(grammar, stripTabs, index === count - 1),
  ).join("");
  const closing = `${stripTabs ? random.pick(["", "\t"]) : ""}${delimiter}`;
  grammar.pending.push(`${body}${closing}\n`);
  grammar.heredocCount += 1;
  return `${stripTabs ? "<<-" : "<<"}${random.pick(["", " "])}${word}`;
}

/** `<<<word`. */
export function hereString(grammar: Grammar): string {
  return `<<<${grammar.random.pick(["", " "])}${grammar.word()}`;
}
