// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source.
/**
 * Simple commands (assignments, the command word, arguments and redirections in any
 * order, declaration builtins with array values), pipelines (`!`, `time`, `|`, `|&`),
 * and-or lists and lists (`;`, `&`, newlines with the here-document bodies after them).
 */
import { compound } from "./compound.js";
import { blank, newline, operator, separator } from "./continuations.js";
import { functionDefinition } from "./functions.js";
import { deeper, type Grammar, mayNest } from "./grammar.js";
import { heredoc, hereString } from "./heredocs.js";
import { name } from "./words.js";

const COMMAND_NAMES = [
  "echo",
  "cat",
  "printf",
  "true",
  ":",
  "x",
  "a.b",
  "/bin/ls",
  "'ls'",
  '"$cmd"',
  "e\\cho",
  "[",
  "test",
];
const DECLARATIONS = [
  "declare",
  "declare -a",
  "declare -A",
  "local",
  "export",
  "readonly",
  "typeset -i",
];

/**
 * Excluded: `1<>` (read-write on descriptor 1). bash's `declare -f` prints it as `<>`,
 * which opens descriptor 0 (print_cmd.c leaves the number out when it is 1, the default
 * of the other operators), so the re-print means something else.
 */
function redirect(grammar: Grammar): string {
  const { random } = grammar;
  const file = (): string => {
    const operator = random.pick([">", ">>", "<", "<>", ">|"]);
    const fd = random.pick(["", "2", "1", "0", "10"].filter((n) => n !== "1" || operator !== "<>"));
    return `${fd}${operator}${random.pick(["", " "])}${grammar.word()}`;
  };
  return random.weighted<string>([
    [6, file],
    [2, () => random.pick(["2>&1", ">&2", "<&0", "3>&-", "1>&3-", "{fd}>f", "{v}<&-"])],
    [2, () => `${random.pick(["&>", "&>>"])}${random.pick(["", " "])}${grammar.word()}`],
    [2, () => hereString(grammar)],
    [grammar.inline || !grammar.heredocs ? 0 : 3, () => heredoc(grammar)],
  ]);
}

/**
 * An array literal; newlines and comments may stand between its elements.
 *
 * Excluded: a backslash or backquote in an element inside a substitution. bash 5.2
 * refuses `$(a=( x\&y ))` and mis-pairs the quotes after `$(a=( \" ))` (its
 * command-substitution parser loses the backslash), though it accepts both outside one.
 */
function arrayValue(grammar: Grammar): string {
  const { random } = grammar;
  const elements = random.repeat(0, 3, () => {
    const text = random.weighted<string>([
      [3, () => grammar.word()],
      [
        1,
        () =>
          `[${random.pick(["1", "i+1", "k", '"k"', "$x"])}]${random.pick(["=", "+="])}${random.chance(0.8) ? grammar.word() : ""}`,
      ],
    ]);
    return grammar.substitution && /[\\`]/.test(text) ? "e" : text;
  });
  const gap = (): string =>
    grammar.inline || grammar.pending.length > 0 || random.chance(0.8)
      ? " "
      : random.pick(["\n", " # c\n"]);
  return `(${elements.map((element) => gap() + element).join("")}${gap()})`;
}

function assignment(grammar: Grammar): string {
  const { random } = grammar;
  const target = random.chance(0.2) ? `a[${random.pick(["1", "i+1", "$k", "@"])}]` : name(grammar);
  const value = random.weighted<string>([
    [5, () => grammar.word()],
    [1, () => ""],
    [2, () => (target.includes("[") ? grammar.word() : arrayValue(grammar))],
    [1, () => "~/x:~/y"],
  ]);
  return `${target}${random.pick(["=", "=", "+="])}${value}`;
}

function simpleCommand(grammar: Grammar): string {
  const { random } = grammar;
  const tokens: string[] = random.repeat(0, random.chance(0.2) ? 2 : 0, () => assignment(grammar));
  if (random.chance(0.1)) tokens.push(redirect(grammar));
  if (tokens.length === 0 || random.chance(0.9)) {
    if (random.chance(0.1)) {
      tokens.push(random.pick(DECLARATIONS));
      tokens.push(
        ...random.repeat(1, 2, () => (random.chance(0.7) ? assignment(grammar) : name(grammar))),
      );
    } else {
      tokens.push(random.pick(COMMAND_NAMES));
      for (const _ of random.repeat(0, 3, () => 0)) {
        tokens.push(random.chance(0.2) ? redirect(grammar) : grammar.word());
      }
    }
  }
  return tokens.map((token, index) => (index === 0 ? token : blank(grammar) + token)).join("");
}

/** One command: mostly simple, sometimes compound or a function definition. */
export function command(grammar: Grammar): string {
  const { random } = grammar;
  if (grammar.broken > 0 && random.chance(0.05)) {
    grammar.broken = 0;
    return grammar.brokenCommand();
  }
  if (!mayNest(grammar, 0.7)) return simpleCommand(grammar);
  return deeper(grammar, () =>
    random.weighted<string>([
      [4, () => simpleCommand(grammar)],
      [3, () => compound(grammar)],
      [1, () => functionDefinition(grammar)],
    ]),
  );
}

function pipeline(grammar: Grammar): string {
  const { random } = grammar;
  const prefix = random.weighted<string>([
    [10, () => ""],
    [1, () => "! "],
    [1, () => random.pick(["time ", "time -p ", "! time ", "time ! "])],
  ]);
  let text = prefix + command(grammar);
  for (const _ of random.repeat(0, random.chance(0.3) ? 2 : 0, () => 0)) {
    const pipe = operator(grammar, random.pick(["|", "|", "|&"]));
    const after = grammar.inline || random.chance(0.8) ? " " : newline(grammar);
    text += ` ${pipe}${after}${command(grammar)}`;
  }
  return text;
}

/** A pipeline in which no here-document may be written. */
function withoutHeredocs(grammar: Grammar, produce: () => string): string {
  const heredocs = grammar.heredocs;
  grammar.heredocs = false;
  try {
    return produce();
  } finally {
    grammar.heredocs = heredocs;
  }
}

/**
 * Excluded: a here-document in an and-or list's pipeline other than the last. bash's
 * `declare -f` prints the operator after the body (`a || b <<e\nbody\ne\n && c`), which
 * does not parse.
 */
function andOr(grammar: Grammar): string {
  const { random } = grammar;
  const links = random.repeat(0, random.chance(0.3) ? 2 : 0, () => 0).length;
  let text = links === 0 ? pipeline(grammar) : withoutHeredocs(grammar, () => pipeline(grammar));
  for (let link = 1; link <= links; link += 1) {
    const joiner = operator(grammar, random.pick(["&&", "||"]));
    const after = grammar.inline || random.chance(0.8) ? " " : newline(grammar);
    const next = (): string => pipeline(grammar);
    text += ` ${joiner}${after}${link === links ? next() : withoutHeredocs(grammar, next)}`;
  }
  return text;
}

/**
 * `&` ends a statement. Excluded: after a here-document still to be written; bash's
 * `declare -f` prints `cmd <<e &\nbody\ne\n ;`, which does not parse.
 */
export function background(grammar: Grammar): boolean {
  return grammar.pending.length === 0 && grammar.random.chance(0.1);
}

/** Statements separated by `;`, `&` or newlines; nothing after the last. */
export function list(grammar: Grammar): string {
  const { random } = grammar;
  let text = andOr(grammar);
  for (const _ of random.repeat(0, grammar.depth === 0 ? 2 : 1, () => 0)) {
    text += background(grammar) ? " & " : separator(grammar);
    text += andOr(grammar);
  }
  return text;
}
