// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LABELS, parseScript } from "../../src/index.js";
import { acceptedScript } from "./helpers/script-generator.js";

const DYNAMIC = "SHELL_DYNAMIC_CONSTRUCT";
const UNSUPPORTED = "SHELL_UNSUPPORTED_CONSTRUCT";
const PARSE = "SHELL_PARSE_ERROR";

/** Refused constructs written as an argument: [text, code, target]. */
const ARGUMENT_CONSTRUCTS: [string, string, string][] = [
  ["$(id)", DYNAMIC, LABELS.commandSubstitution],
  ['"$(id)"', DYNAMIC, LABELS.commandSubstitution],
  ["a$(id)b", DYNAMIC, LABELS.commandSubstitution],
  ["$((1+2))", DYNAMIC, LABELS.arithmeticExpansion],
  ["`id`", DYNAMIC, LABELS.backticks],
  ['"a`id`"', DYNAMIC, LABELS.backticks],
  ["(id)", DYNAMIC, LABELS.subshell],
  ["a)", DYNAMIC, LABELS.subshell],
  ["@(a|b)", DYNAMIC, LABELS.subshell],
  ["<(id)", DYNAMIC, LABELS.processSubstitution],
  [">(id)", DYNAMIC, LABELS.processSubstitution],
  ["${HOME:-x}", UNSUPPORTED, LABELS.variableName],
  ["${!HOME}", UNSUPPORTED, LABELS.variableName],
  ["${HOME@P}", UNSUPPORTED, LABELS.variableName],
  ["${#HOME}", UNSUPPORTED, LABELS.variableName],
  ["$1", UNSUPPORTED, LABELS.bareDollar],
  ["$'x'", UNSUPPORTED, LABELS.bareDollar],
  ['$"x"', UNSUPPORTED, LABELS.bareDollar],
  ["{a,b}", UNSUPPORTED, LABELS.braceExpansion],
  ["x{1..3}", UNSUPPORTED, LABELS.braceExpansion],
  // Found by the differential test (seed 925078229): `{}` does not close the brace.
  ["z{}b,x}", UNSUPPORTED, LABELS.braceExpansion],
  ["~root", UNSUPPORTED, LABELS.tildeUser],
  ["~+", UNSUPPORTED, LABELS.tildeUser],
  ["a=~", UNSUPPORTED, LABELS.tildeAssignment],
  ["p=a:~/b", UNSUPPORTED, LABELS.tildeAssignment],
  ["&", UNSUPPORTED, LABELS.background],
  ["&> f", UNSUPPORTED, LABELS.background],
  ["<<EOF", UNSUPPORTED, LABELS.heredoc],
  ["<<< x", UNSUPPORTED, LABELS.heredoc],
  ["3> f", UNSUPPORTED, LABELS.fdNumber],
  [">&2", UNSUPPORTED, LABELS.outputDuplication],
  ["<&0", UNSUPPORTED, LABELS.inputDuplication],
  ["1>&2", UNSUPPORTED, LABELS.fdDuplication],
  ["<> f", UNSUPPORTED, LABELS.readWrite],
  [">| f", UNSUPPORTED, LABELS.clobber],
  ["{fd}> f", UNSUPPORTED, LABELS.namedFd],
  ["> z*", UNSUPPORTED, LABELS.globTarget],
  ["a\rb", PARSE, "control or invisible character U+000D"],
  ["a\u00a0b", PARSE, "control or invisible character U+00A0"],
  ["'a\u200bb'", PARSE, "control or invisible character U+200B"],
  ["a\u202eb", PARSE, "control or invisible character U+202E"],
];

/** Refused commands: [text, code, target]. */
const COMMAND_CONSTRUCTS: [string, string, string][] = [
  ["eval x", UNSUPPORTED, "shell builtin `eval`"],
  ["'eval' x", UNSUPPORTED, "shell builtin `eval`"],
  ["exec x", UNSUPPORTED, "shell builtin `exec`"],
  ["source x", UNSUPPORTED, "shell builtin `source`"],
  [". x", UNSUPPORTED, "shell builtin `.`"],
  ["cd x", UNSUPPORTED, "shell builtin `cd`"],
  ["export x", UNSUPPORTED, "shell builtin `export`"],
  ["printf -v x y", UNSUPPORTED, "shell builtin `printf`"],
  ["A=1 printf x", UNSUPPORTED, LABELS.assignment],
  ["if true; then x; fi", UNSUPPORTED, "control keyword `if`"],
  ["while x; do y; done", UNSUPPORTED, "control keyword `while`"],
  ["for a in b; do c; done", UNSUPPORTED, "control keyword `for`"],
  ["case a in b) c;; esac", UNSUPPORTED, "control keyword `case`"],
  ["{ x; }", UNSUPPORTED, "control keyword `{`"],
  ["! x", UNSUPPORTED, "control keyword `!`"],
  ["[[ x ]]", UNSUPPORTED, "control keyword `[[`"],
  ["time x", UNSUPPORTED, "control keyword `time`"],
  ["coproc x", UNSUPPORTED, "control keyword `coproc`"],
  ["function f", UNSUPPORTED, "control keyword `function`"],
  ["f() { x; }", DYNAMIC, LABELS.subshell],
];

const placement = fc.constantFrom(
  "argument-after",
  "argument-before",
  "stage",
  "command-after",
  "command-before",
);

describe("generated refused constructs are refused", () => {
  it("a refused construct anywhere in an otherwise accepted script refuses it with its label", () => {
    const base = acceptedScript.filter((source) => parseScript(source).ok);
    const argument = fc.tuple(fc.constant("argument"), fc.constantFrom(...ARGUMENT_CONSTRUCTS));
    const command = fc.tuple(fc.constant("command"), fc.constantFrom(...COMMAND_CONSTRUCTS));
    fc.assert(
      fc.property(
        base,
        fc.oneof(argument, command),
        placement,
        (script, [kind, construct], where) => {
          const [text, code, target] = construct;
          const line = kind === "argument" ? `printf '%s\\0' a ${text}` : text;
          const source = where.endsWith("before")
            ? `${line}\n${script}`
            : where === "stage"
              ? `${script}\nprintf x | ${line}`
              : `${script}\n${line}`;
          const result = parseScript(source);
          expect(result.ok).toBe(false);
          if (result.ok) return;
          expect([result.refusal.code, result.refusal.target]).toEqual([code, target]);
          const lineStart = source.indexOf(line, where.endsWith("before") ? 0 : script.length);
          expect(result.refusal.offset).toBeGreaterThanOrEqual(lineStart);
          expect(result.refusal.end).toBeLessThanOrEqual(lineStart + line.length);
          expect(result.refusal.dynamic).toBe(code === DYNAMIC);
        },
      ),
      { numRuns: 600 },
    );
  });
});
