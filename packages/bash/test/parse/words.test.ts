// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { describe, expect, it } from "vitest";
import type { Script, Span, Word, WordPart } from "../../src/index.js";
import { argument, commands, simple, text } from "../helpers/parse.js";

function parts(word: string): WordPart[] {
  return [...argument(word).word.parts];
}

function only(word: string): WordPart {
  const [part, ...rest] = parts(word);
  expect(rest).toEqual([]);
  return part as WordPart;
}

describe("quoting", () => {
  it("splits a word into literal, quoted and escaped parts with offsets", () => {
    const { source, word } = argument(`a'b c'"d $e"\\f`);
    expect(word.parts.map((part) => [part.type, text(source, part)])).toEqual([
      ["Literal", "a"],
      ["SingleQuoted", "'b c'"],
      ["DoubleQuoted", '"d $e"'],
      ["Escaped", "\\f"],
    ]);
    const double = word.parts[2];
    expect(double?.type === "DoubleQuoted" && double.parts.map((part) => part.type)).toEqual([
      "Literal",
      "ParameterExpansion",
    ]);
  });

  it('escapes inside double quotes only $ ` " \\ and newline', () => {
    const { source, word } = argument(`"\\$ \\n \\" \\\\"`);
    const double = word.parts[0];
    if (double?.type !== "DoubleQuoted") throw new Error("not double quoted");
    expect(double.parts.map((part) => [part.type, text(source, part)])).toEqual([
      ["Escaped", "\\$"],
      ["Literal", " \\n "],
      ["Escaped", '\\"'],
      ["Literal", " "],
      ["Escaped", "\\\\"],
    ]);
  });

  it.each([
    ["$'a\\tb'", "a\tb"],
    ["$'\\x41\\101\\u00e9\\U0001F600'", "AAé😀"],
    ["$'\\e\\E\\a\\v\\f\\r\\n'", "\x1b\x1b\x07\v\f\r\n"],
    ["$'\\cA\\c?'", "\x01\x7f"],
    ["$'it\\'s'", "it's"],
    ["$'\\q'", "\\q"],
  ])("decodes ANSI-C quoting %s", (word, value) => {
    expect(only(word)).toMatchObject({ type: "AnsiCQuoted", value });
  });

  it('parses $"…" like double quotes', () => {
    expect(only('$"hello $name"')).toMatchObject({ type: "LocaleQuoted" });
  });

  it("removes line continuations from literals and keeps the span", () => {
    const { source, word } = argument("ab\\\ncd");
    expect(word.parts.map((part) => part.type === "Literal" && part.value)).toEqual(["ab", "cd"]);
    expect(text(source, word)).toBe("ab\\\ncd");
  });
});

describe("parameter expansion", () => {
  it.each([
    ["$name", { parameter: "name", braced: false, operation: null }],
    ["$1", { parameter: "1" }],
    ["$@", { parameter: "@" }],
    ["$$", { parameter: "$" }],
    ["${12}", { parameter: "12", braced: true }],
    ["${#v}", { parameter: "v", length: true }],
    ["${#}", { parameter: "#", length: false }],
    ["${!ref}", { parameter: "ref", indirect: true }],
    ["${!pre*}", { parameter: "pre", indirect: true, names: "*" }],
    ["${!pre@}", { parameter: "pre", indirect: true, names: "@" }],
    ["${!arr[@]}", { parameter: "arr", indirect: true, names: null }],
    ["${v:-x}", { operation: { kind: "default", operator: "-", colon: true } }],
    ["${v=x}", { operation: { kind: "default", operator: "=", colon: false } }],
    ["${v:?msg}", { operation: { kind: "default", operator: "?", colon: true } }],
    ["${v+alt}", { operation: { kind: "default", operator: "+", colon: false } }],
    ["${v#p}", { operation: { kind: "removePrefix", longest: false } }],
    ["${v##p}", { operation: { kind: "removePrefix", longest: true } }],
    ["${v%p}", { operation: { kind: "removeSuffix", longest: false } }],
    ["${v%%p}", { operation: { kind: "removeSuffix", longest: true } }],
    ["${v/p/r}", { operation: { kind: "replace", mode: "first" } }],
    ["${v//p/r}", { operation: { kind: "replace", mode: "all" } }],
    ["${v/#p/r}", { operation: { kind: "replace", mode: "prefix" } }],
    ["${v/%p/r}", { operation: { kind: "replace", mode: "suffix" } }],
    ["${v/p}", { operation: { kind: "replace", mode: "first", replacement: null } }],
    ["${v^}", { operation: { kind: "case", operator: "^", pattern: null } }],
    ["${v^^[ab]}", { operation: { kind: "case", operator: "^^" } }],
    ["${v,}", { operation: { kind: "case", operator: "," } }],
    ["${v,,}", { operation: { kind: "case", operator: ",," } }],
    ["${v@Q}", { operation: { kind: "transform", operator: "Q" } }],
    ["${v@P}", { operation: { kind: "transform", operator: "P" } }],
    ["${v:1}", { operation: { kind: "substring", length: null } }],
    ["${v&}", { operation: { kind: "invalid", text: "&" } }],
    ["${a[@]}", { parameter: "a" }],
    ["${#a[@]}", { parameter: "a", length: true }],
  ])("%s", (word, expected) => {
    const part = only(word);
    expect(part).toMatchObject({ type: "ParameterExpansion", ...expected });
    expect(text(argument(word).source, part)).toBe(word);
  });

  it("keeps operand words and substring arithmetic with offsets", () => {
    const { source, word } = argument("${v:-a ${b} $(c)}");
    const part = word.parts[0];
    if (part?.type !== "ParameterExpansion" || part.operation?.kind !== "default")
      throw new Error("shape");
    expect(text(source, part.operation.word)).toBe("a ${b} $(c)");
    expect(part.operation.word.parts.map((item) => item.type)).toEqual([
      "Literal",
      "ParameterExpansion",
      "Literal",
      "CommandSubstitution",
    ]);
    const substring = argument("${v: -1:${#w}}");
    const slice = substring.word.parts[0];
    if (slice?.type !== "ParameterExpansion" || slice.operation?.kind !== "substring")
      throw new Error("shape");
    expect(text(substring.source, slice.operation.offset)).toBe(" -1");
    expect(text(substring.source, slice.operation.length as Span)).toBe("${#w}");
  });

  it("keeps the subscript text", () => {
    const { source, word } = argument('${a["k" + $i]}');
    const part = word.parts[0];
    expect(part?.type === "ParameterExpansion" && text(source, part.index as Word)).toBe(
      '"k" + $i',
    );
  });

  it("matches nested braces and quoted braces in operands", () => {
    expect(text(argument("${a:-{b}}").source, only("${a:-{b}}"))).toBe("${a:-{b}}");
    expect(only('${a:-"}"}')).toMatchObject({ type: "ParameterExpansion" });
    expect(only("${a/\\}/x}")).toMatchObject({ operation: { kind: "replace" } });
  });
});

describe("substitutions", () => {
  function script(part: WordPart | undefined): Script {
    if (part?.type !== "CommandSubstitution" && part?.type !== "ProcessSubstitution")
      throw new Error("no script");
    return part.script;
  }

  it("parses $(…) recursively with offsets into the outer source", () => {
    const { source, word } = argument("$(a | b $(c))");
    const inner = script(word.parts[0]);
    expect(text(source, inner)).toBe("a | b $(c)");
    const nested = commands(inner)[1];
    expect(nested?.type === "SimpleCommand" && text(source, nested.words[1] as Word)).toBe("$(c)");
  });

  it("parses a case statement inside $(…)", () => {
    expect(commands(script(only("$(case x in a) echo;; esac)")))[0]?.type).toBe("CompoundCommand");
  });

  it("parses backquotes with escaped nested backquotes and maps offsets back", () => {
    const { source, word } = argument("`echo \\`pwd\\` $x`");
    const part = word.parts[0];
    expect(part).toMatchObject({ type: "CommandSubstitution", backquote: true });
    const inner = commands(script(part))[0];
    if (inner?.type !== "SimpleCommand") throw new Error("shape");
    expect(inner.words.map((item) => text(source, item))).toEqual(["echo", "\\`pwd\\`", "$x"]);
  });

  it("parses $((…)) and $[…] as arithmetic with nested expansions", () => {
    const { source, word } = argument("$((1 + (x * $y) + $(n)))");
    const part = word.parts[0];
    if (part?.type !== "ArithmeticExpansion") throw new Error("shape");
    expect(text(source, part.expression)).toBe("1 + (x * $y) + $(n)");
    expect(part.expression.parts.map((item) => item.type)).toEqual([
      "Literal",
      "ParameterExpansion",
      "Literal",
      "CommandSubstitution",
    ]);
    expect(only("$[1+2]")).toMatchObject({ type: "ArithmeticExpansion", legacy: true });
  });

  it("reads $((cmd) ) as a command substitution of a subshell", () => {
    expect(only("$((echo a) )")).toMatchObject({ type: "CommandSubstitution" });
  });

  it("parses process substitution in both directions, also inside a word", () => {
    expect(only("<(ls)")).toMatchObject({ type: "ProcessSubstitution", direction: "<" });
    expect(only(">(cat)")).toMatchObject({ type: "ProcessSubstitution", direction: ">" });
    expect(parts("a<(b)").map((part) => part.type)).toEqual(["Literal", "ProcessSubstitution"]);
  });
});

describe("word flags", () => {
  it.each([
    ["*.txt", { glob: true, brace: false, tilde: false, quoted: false }],
    ["'*'.txt", { glob: false, quoted: true }],
    ["\\*", { glob: false, quoted: true }],
    ["a[bc]", { glob: true }],
    ["{a,b}", { brace: true }],
    ["{1..3}", { brace: true }],
    ["{a}", { brace: false }],
    ["'{a,b}'", { brace: false }],
    ["~/x", { tilde: true }],
    ["'~'", { tilde: false }],
    ["@(a|b)", { glob: true }],
  ])("%s", (word, flags) => {
    expect(argument(word).word.flags).toMatchObject(flags);
  });

  it("parses extglob groups as parts", () => {
    const extglob = parts("x!(a|b)y")[1];
    expect(extglob).toMatchObject({ type: "ExtGlob", operator: "!" });
    expect(text(argument("x!(a|b)y").source, extglob as WordPart)).toBe("!(a|b)");
  });
});

describe("comments", () => {
  it("starts a comment only at the start of a word", () => {
    const source = "echo a#b # c";
    expect(simple(source).words.map((word) => text(source, word))).toEqual(["echo", "a#b"]);
  });
});
