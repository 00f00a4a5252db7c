// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source.
/**
 * Words and quoting: literals, backslash escapes, single quotes, double quotes (with
 * their escapes and expansions), `$'…'`, `$"…"`, parameter expansions with every
 * operator, globs, braces, extglob groups and tilde prefixes.
 */
import { inWord } from "./continuations.js";
import { deeper, type Grammar, mayNest } from "./grammar.js";
import { substitution } from "./substitutions.js";

const LITERALS = [
  "a",
  "b1",
  "foo",
  "x.y",
  "-n",
  "--opt=v",
  "/tmp/p",
  "a,b",
  "1",
  "42",
  "%s",
  "k=v",
  "@",
  "^x",
  "+",
  ":",
  "a#b",
  "]",
  "e!",
  "a\\&b",
];
const SINGLE = [...'ab $"\\\n;|&()<>*?#{}`!='];
const DOUBLE_TEXT = [..."ab '; |&()<>*?#{}!=~", "\n"];
/**
 * Excluded: a word ending in `\&` (hence `&` here, and `a\&b` among the literals). bash's
 * `declare -f` drops the `;` after such a word (`x \&; do` is printed `x \& do`).
 */
const ESCAPABLE = [..."\\;|()<> '\"$*?[#{}=~!abn`"];
const ANSI_C = ["a", "\\t", "\\n", "\\'", "\\\\", "\\x41", "\\101", "\\e", "\\cA", '"', " ", "$"];
const NAMES = ["x", "y", "HOME", "_v", "a1"];
const SPECIAL = ["1", "@", "*", "#", "?", "$", "!", "-", "_", "0"];
const PATTERNS = ["*", "a*", "?", "[ab]", '"q"', "'s'", "\\*", "x", "*.t", "[!a]*"];

/** A name of a variable. */
export function name(grammar: Grammar): string {
  return grammar.random.pick(NAMES);
}

function chars(grammar: Grammar, alphabet: readonly string[], max: number): string {
  return grammar.random.repeat(0, max, () => grammar.random.pick(alphabet)).join("");
}

function singleQuoted(grammar: Grammar, alphabet: readonly string[] = SINGLE): string {
  return `'${chars(grammar, alphabet, 5)}'`;
}

/**
 * Excluded: single quotes in `${x-…}` inside double quotes (`"${x:-'a'}"`). bash skips
 * them while it finds the closing brace (our parser does too) but then expands their text
 * as if unquoted, and it reads a backquote or `${` in them differently when it parses and
 * when it runs; outside double quotes they are ordinary quotes (kept, without backquotes:
 * bash accepts `"${x:-'\`'}"` and fails when it runs it).
 */
const SINGLE_IN_PARAMETER = SINGLE.filter((char) => char !== "`");

function ansiC(grammar: Grammar): string {
  return `$'${chars(grammar, ANSI_C, 4)}'`;
}

/** One item inside double quotes. */
function doubleItem(grammar: Grammar): string {
  const { random } = grammar;
  return random.weighted<string>([
    [5, () => random.pick(DOUBLE_TEXT)],
    [2, () => random.pick(['\\"', "\\\\", "\\$", "\\`", "\\a", "\\'", "\\\n"])],
    [3, () => parameter(grammar)],
    [1, () => substitution(grammar, true)],
  ]);
}

function doubleQuoted(grammar: Grammar, locale = false): string {
  const outer = grammar.doubleQuoted;
  grammar.doubleQuoted = true;
  try {
    const items = grammar.random.repeat(0, 4, () => doubleItem(grammar)).join("");
    return `${locale ? "$" : ""}"${items}"`;
  } finally {
    grammar.doubleQuoted = outer;
  }
}

/** A word inside `${x…}` (a default, a replacement): quoting and nesting allowed, blanks too. */
function innerWord(grammar: Grammar): string {
  const { random } = grammar;
  return random
    .repeat(0, 2, () =>
      random.weighted<string>([
        [4, () => random.pick(["w", "a b", "1", "-", "", "/", "~"])],
        [grammar.doubleQuoted ? 0 : 2, () => singleQuoted(grammar, SINGLE_IN_PARAMETER)],
        [2, () => doubleQuoted(grammar)],
        [1, () => `$${name(grammar)}`],
        [1, () => (mayNest(grammar, 0.5) ? deeper(grammar, () => parameter(grammar)) : "$y")],
      ]),
    )
    .join("");
}

function operation(grammar: Grammar): string {
  const { random } = grammar;
  return random.weighted<string>([
    [4, () => `${random.pick([":-", "-", ":=", "=", ":?", "?", ":+", "+"])}${innerWord(grammar)}`],
    [3, () => `${random.pick(["#", "##", "%", "%%"])}${random.pick(PATTERNS)}`],
    [
      3,
      () =>
        `${random.pick(["/", "//", "/#", "/%"])}${random.pick(PATTERNS)}${random.chance(0.8) ? `/${innerWord(grammar)}` : ""}`,
    ],
    [2, () => `:${random.pick(["1", " -1", "i+1", "$n", "(2)"])}${random.chance(0.5) ? ":2" : ""}`],
    [2, () => `${random.pick(["^", "^^", ",", ",,"])}${random.chance(0.3) ? "[ab]" : ""}`],
    [1, () => `@${random.pick(["Q", "U", "L", "a", "E", "P", "K", "u"])}`],
  ]);
}

/** `$x`, `$1`, `${x}`, `${#x}`, `${x:-w}`, `${a[i]}`, `${!x}`, `${!pre*}`, … */
export function parameter(grammar: Grammar): string {
  const { random } = grammar;
  return random.weighted<string>([
    [3, () => `$${name(grammar)}`],
    [2, () => `$${random.pick(SPECIAL)}`],
    [2, () => `\${${name(grammar)}}`],
    [1, () => `\${${random.pick(["#", "!"])}${name(grammar)}}`],
    [5, () => `\${${name(grammar)}${operation(grammar)}}`],
    [
      2,
      () =>
        `\${${random.pick(["", "#", "!"])}a[${random.pick(["1", "@", "*", "i+1", "$k", '"k"'])}]${random.chance(0.4) ? operation(grammar) : ""}}`,
    ],
    [1, () => `\${!${random.pick(["pre", "x"])}${random.pick(["*", "@"])}}`],
    [1, () => `\${${random.pick(SPECIAL)}${random.chance(0.5) ? operation(grammar) : ""}}`],
  ]);
}

/** One piece of an unquoted word. */
function piece(grammar: Grammar): string {
  const { random } = grammar;
  return random.weighted<string>([
    [8, () => random.pick(LITERALS)],
    [3, () => singleQuoted(grammar)],
    [4, () => doubleQuoted(grammar)],
    [1, () => doubleQuoted(grammar, true)],
    [2, () => ansiC(grammar)],
    [2, () => `\\${random.pick(ESCAPABLE)}`],
    [4, () => parameter(grammar)],
    [2, () => random.pick(["*", "?", "[ab]", "[!x]", "[[:alpha:]]", "[]a]", "**"])],
    [1, () => random.pick(["{a,b}", "{1..3}", "{x,{y,z}}", "{}", "{a}"])],
    [1, () => `${random.pick(["?", "*", "+", "@", "!"])}(${random.pick(["a", "a|b", "x*", ""])})`],
    [2, () => substitution(grammar, false)],
  ]);
}

/** A word in argument position: one to three pieces, sometimes after a tilde prefix. */
export function word(grammar: Grammar): string {
  const { random } = grammar;
  const prefix = random.chance(0.05) ? random.pick(["~", "~/", "~root/", "~+/"]) : "";
  const pieces = random.repeat(1, random.chance(0.3) ? 3 : 1, () => piece(grammar));
  return (
    prefix + pieces.map((text, index) => (index === 0 ? text : inWord(grammar) + text)).join("")
  );
}

/** A word with no blanks and no expansions that could read a newline: a case pattern, a `[[` operand. */
export function plainWord(grammar: Grammar): string {
  const { random } = grammar;
  return random.weighted<string>([
    [4, () => random.pick(LITERALS)],
    [2, () => singleQuoted(grammar)],
    [2, () => doubleQuoted(grammar)],
    [2, () => parameter(grammar)],
    [1, () => `\\${random.pick(ESCAPABLE)}`],
  ]);
}
