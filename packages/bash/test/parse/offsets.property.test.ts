// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AstNode, forEachNode, parseBash, type Script } from "../../src/index.js";

/** A deep copy of `node` with every offset moved by `delta`. */
function shifted<T>(node: T, delta: number): T {
  return JSON.parse(JSON.stringify(node), (key, value: unknown) =>
    (key === "start" || key === "end") && typeof value === "number" ? value + delta : value,
  ) as T;
}

function firstOfType(script: Script, type: string): AstNode | undefined {
  let found: AstNode | undefined;
  forEachNode(script, (node) => {
    if (found === undefined && node.type === type) found = node;
  });
  return found;
}

const name = fc.constantFrom("a", "b", "x", "var", "_1");
const fragment = fc.oneof(
  fc.stringMatching(/^[a-z0-9._-]{1,4}$/),
  fc.constantFrom(
    "'q w'",
    '"d $x"',
    '"${y:-z}"',
    "\\*",
    "*.t",
    "{a,b}",
    "$'a\\tb'",
    "~",
    "@(p|q)",
    "`cmd x`",
    '"`q`"',
    "`a \\`b\\``",
  ),
  name.map((variable) => `$${variable}`),
  name.map((variable) => `\${${variable}:-d e}`),
  name.map((variable) => `\${#${variable}}`),
  name.map((variable) => `\${${variable}//a/b}`),
  name.map((variable) => `$((${variable} + 1))`),
);
const word = fc.array(fragment, { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join(""));
const words = fc.array(word, { minLength: 1, maxLength: 3 }).map((items) => items.join(" "));
const redirect = fc.constantFrom("", " >f", " 2>&1", " <in", " >>log", " &>/dev/null", " <<<w");

const tree = fc.letrec<{ command: string; list: string }>((tie) => ({
  command: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc
      .tuple(fc.constantFrom("", "A=1 "), name, words, redirect)
      .map(([assign, head, rest, target]) => `${assign}${head} ${rest}${target}`),
    tie("list").map((list) => `{ ${list}; }`),
    tie("list").map((list) => `( ${list} )`),
    fc
      .tuple(tie("list"), tie("list"))
      .map(([condition, body]) => `if ${condition}; then ${body}; else :; fi`),
    fc
      .tuple(tie("list"), tie("list"))
      .map(([condition, body]) => `while ${condition}; do ${body}; done`),
    fc
      .tuple(name, words, tie("list"))
      .map(([variable, items, body]) => `for ${variable} in ${items}; do ${body}; done`),
    fc
      .tuple(word, tie("list"))
      .map(([subject, body]) => `case ${subject} in a|b) ${body};; *) :;; esac`),
    fc.tuple(name, tie("list")).map(([function_, body]) => `f${function_}() { ${body}; }`),
    // A left operand that reads as a unary operator (`-a`) takes `==` as its argument in
    // bash (`[[ -a == 0 ]]` is a syntax error), so it gets a prefix.
    fc
      .tuple(word, word)
      .map(([word, right]) => [word.startsWith("-") ? `x${word}` : word, right])
      .map(([left, right]) => `[[ ${left} == ${right} && -n ${left} ]]`),
    name.map((variable) => `(( ${variable} += 2 ))`),
    tie("list").map((list) => `echo $(${list}) "$(${list})"`),
  ),
  list: fc
    .tuple(
      tie("command"),
      fc.array(fc.tuple(fc.constantFrom("; ", " && ", " || ", " | ", "\n"), tie("command")), {
        maxLength: 2,
      }),
    )
    .map(
      ([first, rest]) => first + rest.map(([separator, command]) => separator + command).join(""),
    ),
}));

describe("offsets (property)", () => {
  it("every node lies inside its parent and inside the source", () => {
    fc.assert(
      fc.property(tree.list, (source) => {
        const result = parseBash(source);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        // Plain checks: `expect` per node would dominate the run time.
        forEachNode(result.script, (node, parent) => {
          const inside = 0 <= node.start && node.start <= node.end && node.end <= source.length;
          const nested = parent === null || (parent.start <= node.start && node.end <= parent.end);
          if (!inside || !nested)
            throw new Error(`${node.type} [${node.start}, ${node.end}) outside its parent`);
        });
      }),
      { numRuns: 100 },
    );
  });

  it("every command, word and literal's source slice is that node's text (round trip)", () => {
    fc.assert(
      fc.property(tree.list, (source) => {
        const result = parseBash(source);
        if (!result.ok) throw new Error(result.error.message);
        // Inside a backquote body the source is escaped text (\` for `), so a slice there is
        // not standalone bash: those nodes get the span checks only.
        const escapedBodies: AstNode[] = [];
        forEachNode(result.script, (node) => {
          if (
            node.type === "CommandSubstitution" &&
            (node as unknown as { backquote: boolean }).backquote
          ) {
            escapedBodies.push(node);
          }
        });
        forEachNode(result.script, (node, parent) => {
          const slice = source.slice(node.start, node.end);
          if (escapedBodies.some((body) => body.start < node.start && node.end < body.end)) return;
          if (
            node.type === "SimpleCommand" ||
            node.type === "CompoundCommand" ||
            node.type === "FunctionDefinition"
          ) {
            const again = parseBash(slice);
            if (!again.ok) throw new Error(`${slice}: ${again.error.message}`);
            expect(shifted(firstOfType(again.script, node.type), node.start)).toEqual(node);
          }
          if (node.type === "Word" && parent?.type === "SimpleCommand") {
            const again = parseBash(`echo ${slice}`);
            if (!again.ok) throw new Error(`${slice}: ${again.error.message}`);
            const command = firstOfType(again.script, "SimpleCommand") as unknown as {
              words: AstNode[];
            };
            expect(shifted(command.words[1], node.start - 5)).toEqual(node);
          }
          const value = (node as unknown as { value?: string }).value;
          if (node.type === "Literal" && !slice.includes("\\\n") && value !== slice)
            throw new Error(`literal ${slice}`);
          if (node.type === "SingleQuoted" && slice !== `'${value}'`)
            throw new Error(`single-quoted ${slice}`);
        });
      }),
      { numRuns: 100 },
    );
  });
});
