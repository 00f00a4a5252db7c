/**
 * Compound commands: `{ …; }`, `( … )`, `if`/`elif`/`else`, `while`, `until`, `for … in`,
 * `for` without `in`, `for ((…))`, `select`, `case` (every terminator, a leading `(`,
 * alternatives, the last item without `;;`), `[[ … ]]` and `(( … ))`, each sometimes with
 * redirections after it.
 */
import { arithmetic } from "./arithmetic.js";
import { blank, newline, operator, separator } from "./continuations.js";
import type { Grammar } from "./grammar.js";
import { name, parameter, plainWord } from "./words.js";

/** What ends a list before a closing word: `;`, `&` or a newline. */
export function terminator(grammar: Grammar): string {
  // No `&` after a waiting here-document (see `commands.background`).
  if (grammar.pending.length === 0 && grammar.random.chance(0.1)) return " & ";
  return separator(grammar);
}

/** Before `then`, `do`, `in` items and the like: `;` or newlines. */
function lineBreak(grammar: Grammar): string {
  return grammar.inline || grammar.random.chance(0.5) ? "; " : newline(grammar);
}

/** Between `case` items: a blank or newlines. */
function itemBreak(grammar: Grammar): string {
  return grammar.inline || grammar.random.chance(0.5) ? " " : newline(grammar);
}

/**
 * Excluded: a newline before `in` (`for x<newline>in a; do`). bash 5.2 refuses it at `do`
 * after an item-less `case w in esac` anywhere earlier in the same parse (its case-pattern
 * state outlives the `esac`), and accepts it otherwise.
 */
function loopWords(grammar: Grammar): string {
  const { random } = grammar;
  return random.weighted<string>([
    [4, () => ` in ${random.repeat(0, 3, () => grammar.word()).join(" ")}${lineBreak(grammar)}`],
    [1, () => lineBreak(grammar)],
  ]);
}

/**
 * Excluded: here-documents in an `if` or `elif` condition. bash's `declare -f` prints
 * the body after the first line of the `then` part (`if cat <<e; then\n : || \nbody…`),
 * where reading the re-print takes that line into the body.
 */
function condition(grammar: Grammar): string {
  const heredocs = grammar.heredocs;
  grammar.heredocs = false;
  try {
    return `${grammar.list()}${terminator(grammar)}`;
  } finally {
    grammar.heredocs = heredocs;
  }
}

function ifCommand(grammar: Grammar): string {
  const { random } = grammar;
  let text = `if ${condition(grammar)}then ${grammar.list()}${terminator(grammar)}`;
  for (const _ of random.repeat(0, 2, () => 0)) {
    text += `elif ${condition(grammar)}then ${grammar.list()}${terminator(grammar)}`;
  }
  if (random.chance(0.4)) text += `else ${grammar.list()}${terminator(grammar)}`;
  return `${text}fi`;
}

function casePattern(grammar: Grammar): string {
  const { random } = grammar;
  return random.weighted<string>([
    [3, () => plainWord(grammar)],
    [2, () => random.pick(["*", "[ab]*", "?", "a*b", "*.txt", "@(x|y)", "!(z)", "\\)", "'a)'"])],
  ]);
}

function caseItem(grammar: Grammar): string {
  const { random } = grammar;
  const patterns = random.repeat(1, 3, () => casePattern(grammar)).join(random.pick(["|", " | "]));
  const open = random.chance(0.3) ? "(" : "";
  const body = random.chance(0.8) ? ` ${grammar.list()}` : "";
  const gap = random.pick(["", " ", "newline"]);
  const before = gap === "newline" ? itemBreak(grammar) : gap;
  return `${open}${patterns})${body}${before}${random.pick([";;", ";;", ";&", ";;&"])}`;
}

/** Built in source order: a newline writes the here-document bodies queued before it. */
function caseCommand(grammar: Grammar): string {
  const { random } = grammar;
  // After `in` and after `;;` only blanks and newlines may stand.
  let text = `case ${plainWord(grammar)} in${blank(grammar)}${itemBreak(grammar)}`;
  for (const _ of random.repeat(0, 3, () => 0)) text += `${caseItem(grammar)}${itemBreak(grammar)}`;
  // The last item may leave out its terminator.
  if (random.chance(0.3))
    text += `${casePattern(grammar)}) ${grammar.list()}${terminator(grammar)}`;
  return `${text}esac`;
}

function test(grammar: Grammar, depth = 0): string {
  const { random } = grammar;
  const leaf = (): string =>
    random.weighted<string>([
      [
        3,
        () =>
          `${random.pick(["-n", "-z", "-f", "-d", "-e", "-r", "-s", "-L"])} ${plainWord(grammar)}`,
      ],
      [1, () => `-v ${name(grammar)}`],
      [
        4,
        () =>
          `${plainWord(grammar)} ${random.pick(["==", "!=", "=", "<", ">", "-eq", "-ne", "-lt", "-ge", "-nt", "-ef"])} ${plainWord(grammar)}`,
      ],
      [2, () => `${plainWord(grammar)} == ${random.pick(["a*", "@(x|y)", "[ab]", '"*"', "*$x*"])}`],
      [
        2,
        () =>
          `${parameter(grammar)} =~ ${random.pick(["^a.*$", "[0-9]+", "a|b", "(a)(b)?", '"x"', "\\.", "^(a|b)$"])}`,
      ],
      [1, () => plainWord(grammar)],
    ]);
  if (depth > 1) return leaf();
  return random.weighted<string>([
    [4, leaf],
    [1, () => `! ${test(grammar, depth + 1)}`],
    [1, () => `( ${test(grammar, depth + 1)} )`],
    [
      2,
      () =>
        `${test(grammar, depth + 1)} ${operator(grammar, random.pick(["&&", "||"]))} ${test(grammar, depth + 1)}`,
    ],
  ]);
}

/** A compound command (without redirections). */
function compoundBody(grammar: Grammar): string {
  const { random } = grammar;
  return random.weighted<string>([
    [3, () => `{ ${grammar.list()}${terminator(grammar)}}`],
    [3, () => `( ${grammar.list()} )`],
    [3, () => ifCommand(grammar)],
    [
      2,
      () =>
        `${random.pick(["while", "until"])} ${grammar.list()}${terminator(grammar)}do ${grammar.list()}${terminator(grammar)}done`,
    ],
    [
      3,
      () =>
        `for ${name(grammar)}${loopWords(grammar)}do ${grammar.list()}${terminator(grammar)}done`,
    ],
    [
      1,
      () =>
        `for ((${arithmetic(grammar)};${arithmetic(grammar)};${arithmetic(grammar)}))${lineBreak(grammar)}do ${grammar.list()}${terminator(grammar)}done`,
    ],
    [1, () => `for (( ; ; ))${random.pick([" ", "; "])}{ ${grammar.list()}${terminator(grammar)}}`],
    [
      1,
      () =>
        `select ${name(grammar)}${loopWords(grammar)}do ${grammar.list()}${terminator(grammar)}done`,
    ],
    [3, () => caseCommand(grammar)],
    [3, () => `[[ ${test(grammar)} ]]`],
    [2, () => `((${arithmetic(grammar)}))`],
  ]);
}

const REDIRECTS = [">f", "2>/dev/null", ">>log", "<in", "2>&1", "&>out", "3<&-"];

/** A compound command, sometimes with redirections after it. */
export function compound(grammar: Grammar): string {
  const { random } = grammar;
  const redirects = random.repeat(0, random.chance(0.2) ? 2 : 0, () => random.pick(REDIRECTS));
  return compoundBody(grammar) + redirects.map((text) => ` ${text}`).join("");
}
