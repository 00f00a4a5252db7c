/**
 * Command substitution (`$(…)`, backquotes), process substitution (`<(…)`, `>(…)`) and
 * arithmetic expansion (`$((…))`, `$[…]`) as word pieces. A `$(…)` body is a whole
 * list: compound commands, `case` (whose `)` must not close the substitution), comments
 * and here-documents, whose bodies are written before the closing `)`.
 */
import { arithmetic } from "./arithmetic.js";
import { newline } from "./continuations.js";
import { deeper, type Grammar, mayNest } from "./grammar.js";

/**
 * A list for a nested body: here-documents inside it end inside it.
 *
 * Excluded: `time` as the first word of a `$(…)` body. bash 5.2 then misreads the `(`
 * that follows (`$(time x=( ))`, `$(time (a))` and `$(time f() { :; })` are refused,
 * `$(:; time x=( ))` is accepted), so such a body starts with `:;`.
 */
function nestedList(grammar: Grammar): string {
  const outer = grammar.pending;
  const inline = grammar.inline;
  const substitution = grammar.substitution;
  const doubleQuoted = grammar.doubleQuoted;
  const heredocsBefore = grammar.heredocsBeforeSubstitution;
  grammar.heredocsBeforeSubstitution = grammar.heredocCount;
  grammar.pending = [];
  grammar.inline = inline || outer.length > 0;
  grammar.substitution = true;
  grammar.doubleQuoted = false;
  try {
    let body = grammar.list();
    if (/^\s*(! )?time\b/.test(body)) body = `:; ${body}`;
    // Excluded: `$((` opening a command substitution whose body is a subshell. bash first
    // reads it as arithmetic and, where quotes inside do not pair as arithmetic text, fails
    // instead of falling back (`$(( time x "a" ) )`); a blank keeps them apart.
    if (body.startsWith("(")) body = ` ${body}`;
    if (grammar.pending.length > 0) body += newline(grammar);
    return body;
  } finally {
    grammar.pending = outer;
    grammar.inline = inline;
    grammar.substitution = substitution;
    grammar.doubleQuoted = doubleQuoted;
    grammar.heredocsBeforeSubstitution = heredocsBefore;
  }
}

/**
 * A backquoted command: no backslashes or backquotes inside (they are escaped text there).
 *
 * Excluded: broken commands inside backquotes. bash does not parse a backquoted command
 * until it runs it, so it accepts `` `{ }` `` and fails later; our parser parses it at once.
 */
function backquoted(grammar: Grammar): string {
  const inline = grammar.inline;
  const broken = grammar.broken;
  grammar.inline = true;
  grammar.broken = 0;
  try {
    const body = grammar.command();
    return /[\\`]|<</.test(body) ? "`echo q`" : `\`${body}\``;
  } finally {
    grammar.inline = inline;
    grammar.broken = broken;
  }
}

/** A substitution piece; `quoted` inside double quotes, where process substitution is literal text. */
export function substitution(grammar: Grammar, quoted: boolean): string {
  const { random } = grammar;
  if (!mayNest(grammar, 0.6)) return "$(true)";
  return deeper(grammar, () =>
    random.weighted<string>([
      [
        5,
        () =>
          `$(${random.pick(["", " ", "\n"].slice(0, grammar.inline ? 2 : 3))}${nestedList(grammar)})`,
      ],
      [2, () => backquoted(grammar)],
      [3, () => `$((${arithmetic(grammar)}))`],
      [1, () => `$[${arithmetic(grammar)}]`],
      [quoted ? 0 : 2, () => `${random.pick(["<", ">"])}(${nestedList(grammar)})`],
    ]),
  );
}
