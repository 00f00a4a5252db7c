// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source.
/**
 * Arithmetic expressions for `$((…))`, `((…))`, `for ((…;…;…))`, substring offsets and
 * subscripts: numbers in every base, variables bare and expanded, every operator,
 * assignment, the conditional operator, parentheses and nested expansions. Its text is
 * all bash parses at first (it is evaluated later), so the expressions are well formed.
 */
import { deeper, type Grammar, mayNest } from "./grammar.js";

const NUMBERS = ["0", "1", "42", "0x1f", "017", "2#101", "16#ff", "7"];
const VARIABLES = ["x", "y", "i", "$x", "${y}", "a[1]", "a[i+1]", "$1", "${#x}", "$#"];
const BINARY = [
  "+",
  "-",
  "*",
  "/",
  "%",
  "**",
  "<<",
  ">>",
  "<",
  "<=",
  ">",
  ">=",
  "==",
  "!=",
  "&",
  "^",
  "|",
  "&&",
  "||",
  ",",
];
const ASSIGN = ["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="];

function space(grammar: Grammar): string {
  return grammar.random.pick(["", "", " ", "  "]);
}

function operand(grammar: Grammar): string {
  const { random } = grammar;
  return random.weighted<string>([
    [4, () => random.pick(NUMBERS)],
    [4, () => random.pick(VARIABLES)],
    [1, () => `${random.pick(["++", "--"])}${random.pick(["x", "i"])}`],
    [1, () => `${random.pick(["x", "i"])}${random.pick(["++", "--"])}`],
    [1, () => `${random.pick(["-", "+", "!", "~"])}${operand(grammar)}`],
    [1, () => `$((${random.pick(["1", "x+1", " 2*3 "])}))`],
    [1, () => "$(echo 1)"],
  ]);
}

/** A well-formed arithmetic expression. */
export function arithmetic(grammar: Grammar): string {
  const { random } = grammar;
  if (!mayNest(grammar, 1.5)) return space(grammar) + operand(grammar) + space(grammar);
  return deeper(grammar, () =>
    random.weighted<string>([
      [3, () => operand(grammar)],
      [
        4,
        () =>
          `${arithmetic(grammar)}${space(grammar)}${random.pick(BINARY)}${space(grammar)}${arithmetic(grammar)}`,
      ],
      [
        2,
        () =>
          `${random.pick(["x", "i", "a[2]"])}${space(grammar)}${random.pick(ASSIGN)}${space(grammar)}${arithmetic(grammar)}`,
      ],
      [1, () => `${arithmetic(grammar)} ? ${arithmetic(grammar)} : ${arithmetic(grammar)}`],
      [2, () => `(${space(grammar)}${arithmetic(grammar)}${space(grammar)})`],
    ]),
  );
}
