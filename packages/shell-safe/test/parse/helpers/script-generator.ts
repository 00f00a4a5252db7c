// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import fc from "fast-check";

/**
 * Generates scripts of the accepted subset whose bash meaning is observable through
 * `printf '%s\0'`: words built from random quoting of a wide alphabet, variables,
 * tilde, continuations, unmatched globs, comments, redirections to per-stage files,
 * and every separator. A few generated scripts fall outside the subset (the parser
 * refuses them, which is always allowed); the rest are compared against real bash.
 */

const ALPHABET = [..."abz09 \t'\"\\#~*?[]{}$;|&<>()!=:%,-/.^@+\n"];
const PLAIN = [..."abz09_-.,/+%@=:^]!#{}"];
const DOUBLE_QUOTE_ESCAPED = new Set(['"', "\\", "$", "`"]);

const chars = (set: readonly string[], max: number) =>
  fc.array(fc.constantFrom(...set), { minLength: 1, maxLength: max }).map((list) => list.join(""));

const plainPiece = chars(PLAIN, 4);
const singleQuoted = fc
  .array(fc.constantFrom(...ALPHABET.filter((char) => char !== "'")), { maxLength: 5 })
  .map((list) => `'${list.join("")}'`);

const doubleQuotedItem = fc.oneof(
  fc.constantFrom(...ALPHABET).map((char) => (DOUBLE_QUOTE_ESCAPED.has(char) ? `\\${char}` : char)),
  fc.constantFrom("\\a", "\\'", "\\#", "\\\n", "$HOME", "${PWD}", "$HOME/x", "${HOME}z"),
);
const doubleQuoted = fc
  .array(doubleQuotedItem, { maxLength: 5 })
  .map((list) => `"${list.join("")}"`);

const escaped = fc
  .constantFrom(...ALPHABET.filter((char) => char !== "\n"))
  .map((char) => `\\${char}`);
const variable = fc.constantFrom("$HOME", "${HOME}", "$PWD", "${PWD}", "${HOME}/", "$HOME/");
const continuation = fc.constant("\\\n");
const globPiece = fc.constantFrom("*", "?", "[ab]", "[", "[!a]", "**");

const piece = fc.oneof(
  { weight: 4, arbitrary: plainPiece },
  { weight: 3, arbitrary: singleQuoted },
  { weight: 3, arbitrary: doubleQuoted },
  { weight: 2, arbitrary: escaped },
  { weight: 1, arbitrary: variable },
  { weight: 1, arbitrary: continuation },
);

/**
 * A word that never starts a comment and never glob-matches: globs start with a quoted
 * `'z'` (no file here starts with z). An unquoted `z` is not enough: an argument may touch
 * the previous one, whose `$HOME` or trailing line continuation then reads the `z` into a
 * variable name (`$HOMEz**??**` is the unset `$HOMEz` and a matching `**??**`; seeds
 * 995445483 and 996510608).
 */
const argumentWord = fc
  .oneof(
    {
      weight: 6,
      arbitrary: fc.array(piece, { minLength: 1, maxLength: 4 }).map((list) => list.join("")),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.oneof(piece, globPiece), { minLength: 1, maxLength: 4 })
        .map((list) => `'z'${list.join("")}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom("~", "~/", "~/a"), fc.array(piece, { maxLength: 2 }))
        .map(([tilde, rest]) => tilde + (tilde === "~" ? "" : rest.join(""))),
    },
  )
  .map((word) => (word.startsWith("#") || word.startsWith("\\\n") ? `q${word}` : word));

const blank = fc.constantFrom(" ", " ", " ", "  ", "\t", " \\\n ", "");
const program = fc.constantFrom(
  "printf",
  "'printf'",
  'p"rin"tf',
  "\\printf",
  "pr\\\nintf",
  "printf",
);
const format = fc.constantFrom("'%s\\0'", '"%s\\0"', "%s\\\\0", "'%s'\\\\0", "%s'\\0'");

const fileTarget = (stage: number) =>
  fc.tuple(fc.constantFrom("a", "b"), fc.constantFrom(0, 1, 2, 3, 4, 5)).map(([letter, style]) => {
    const name = `o${stage}${letter}`;
    return [
      name,
      `'${name}'`,
      `"${name}"`,
      `o\\${stage}${letter}`,
      `$PWD/${name}`,
      `"$PWD"/${name}`,
    ][style] as string;
  });

const redirection = (stage: number) =>
  fc.oneof(
    fc
      .tuple(
        fc.constantFrom(">", ">>", "1>", "1>>", "2>", "2>>"),
        fc.constantFrom("", " "),
        fileTarget(stage),
      )
      .map(([op, space, target]) => `${op}${space}${target}`),
    fc
      .tuple(
        fc.constantFrom("<", "0<"),
        fc.constantFrom("", " "),
        fc.constantFrom("in", "'in'", "nx", "i\\n"),
      )
      .map(([op, space, target]) => `${op}${space}${target}`),
    fc.constant("2>&1"),
  );

/** A token and whether it is a plain argument (only arguments may touch each other). */
type Token = readonly [text: string, argument: boolean];

const command = (stage: number) =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(
          fc.array(redirection(stage), { maxLength: 1 }),
          program,
          format,
          fc.array(
            fc.oneof(
              argumentWord.map((text): Token => [text, true]),
              argumentWord.map((text): Token => [text, true]),
              redirection(stage).map((text): Token => [text, false]),
            ),
            { maxLength: 4 },
          ),
          fc.array(blank, { minLength: 8, maxLength: 8 }),
        )
        .map(([before, name, fmt, rest, blanks]) => {
          const tokens: Token[] = [
            ...before.map((text): Token => [text, false]),
            [name, false],
            [fmt, false],
            ...rest,
          ];
          return tokens
            .map(([text, argument], index) => {
              if (index === 0) return text;
              const previous = tokens[index - 1];
              const space = blanks[index % 8] ?? " ";
              return (space === "" && !(argument && previous?.[1] === true) ? " " : space) + text;
            })
            .join("");
        }),
    },
    { weight: 1, arbitrary: fc.constantFrom("true", "false", "false x", "'true'") },
  );

const pipeline = fc
  .integer({ min: 1, max: 3 })
  .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => command(index + 1))))
  .chain((stages) =>
    fc
      .array(fc.constantFrom(" | ", "|", " |\n ", "|\\\n"), {
        minLength: stages.length,
        maxLength: stages.length,
      })
      .map((pipes) =>
        stages.map((stage, index) => (index === 0 ? stage : `${pipes[index]}${stage}`)).join(""),
      ),
  );

const andOr = fc
  .tuple(
    pipeline,
    fc.array(fc.tuple(fc.constantFrom(" && ", " || ", "&&", "||", " &&\n", "||\n\n "), pipeline), {
      maxLength: 2,
    }),
  )
  .map(([head, tail]) => head + tail.map(([op, next]) => op + next).join(""));

const comment = fc
  .array(fc.constantFrom(...ALPHABET.filter((char) => char !== "\n")), { maxLength: 6 })
  .map((list) => ` #${list.join("")}`);

const terminator = fc.oneof(
  fc.constantFrom(";", " ; ", "\n", ";\n", "\n\n", " ;"),
  comment.map((text) => `${text}\n`),
);

/** A whole script: and-or lists joined by `;`, newlines and comments. */
export const acceptedScript: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.tuple(andOr, terminator), { minLength: 1, maxLength: 3 }),
    fc.constantFrom("", ";", "\n", " # end"),
  )
  .map(([lists, end]) => {
    const body = lists.map(([list, sep]) => list + sep).join("");
    return trimSeparators(body) + end;
  });

/** Drops trailing `;`, newlines, spaces and `#` so the chosen ending is the only one. */
function trimSeparators(body: string): string {
  let end = body.length;
  while (end > 0 && ";\n# ".includes(body[end - 1] as string)) end -= 1;
  return body.slice(0, end);
}
