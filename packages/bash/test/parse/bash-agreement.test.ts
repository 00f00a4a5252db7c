// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
/**
 * Regressions from the generated parse-agreement test (tools/compat, generated-agreement):
 * each case is a divergence it found between our parser and bash 5.2 (`bash -n` and
 * `declare -f`), reduced to its smallest script; the comment says what bash does.
 */
import { describe, expect, it } from "vitest";
import { parseBash } from "../../src/index.js";
import { compound, onlyCommand, parseOk, simple, text } from "../helpers/parse.js";

function refusal(source: string): string {
  const result = parseBash(source);
  if (result.ok) throw new Error(`expected ${JSON.stringify(source)} to be refused`);
  return result.error.message;
}

describe("bash-agreement regressions", () => {
  it("a line continuation may split an operator (`|\\<nl>|` is `||`)", () => {
    for (const source of ["a |\\\n| b", "a &\\\n& b", "a |\\\n& b", "a >\\\n> f", "a <\\\n<<w"]) {
      parseOk(source);
    }
    expect(parseOk("a |\\\n| b").body.statements[0]?.andOr.operators).toEqual(["||"]);
    expect(parseOk("a |\\\n& b").body.statements[0]?.andOr.pipelines[0]?.operators).toEqual(["|&"]);
    const body = compound("[[ a &\\\n& b ]]");
    expect(body.type === "Conditional" && body.expression.type).toBe("ConditionalLogical");
  });

  it("`function name` takes a subshell or arithmetic body after `(` that is not `()`", () => {
    const subshell = onlyCommand("function g ( echo a )");
    expect(subshell.type === "FunctionDefinition" && subshell.body.body.type).toBe("Subshell");
    const arithmetic = onlyCommand("function g ((x--))");
    expect(arithmetic.type === "FunctionDefinition" && arithmetic.body.body.type).toBe(
      "ArithmeticCommand",
    );
    const parens = onlyCommand("function g () { :; }");
    expect(parens.type === "FunctionDefinition" && parens.body.body.type).toBe("BraceGroup");
    expect(refusal("g ( echo a )")).toBe("syntax error near unexpected token `echo'");
  });

  it("a unary `[[` operator always takes the next word as its operand", () => {
    // bash: "unexpected argument `]]' to conditional unary operator", and a syntax error
    // for a word left over after `-n ==`.
    expect(refusal("[[ -n ]]")).toContain("`]]'");
    expect(refusal("[[ -n == x ]]")).toContain("`x'");
    expect(refusal("[[ -n -ne : ]]")).toContain("`:'");
    const body = compound("[[ -n == ]]");
    expect(body.type === "Conditional" && body.expression).toMatchObject({
      type: "ConditionalUnary",
      operator: "-n",
    });
    const binary = compound("[[ a -ne b ]]");
    expect(binary.type === "Conditional" && binary.expression.type).toBe("ConditionalBinary");
  });

  it("`<<-` strips the tabs of a line, not of the text a continuation joins to it", () => {
    // bash prints `a\t\tb`: the continued text belongs to the line before.
    const command = simple("cat <<-e\n\ta\\\n\t\tb\n\tc\ne\n");
    const body = command.redirects[0]?.heredoc?.body;
    const literal = body?.parts.map((part) => ("value" in part ? part.value : "")).join("");
    expect(literal).toBe("a\t\tb\nc\n");
  });

  it("an assignment follows a redirection only where bash's lexer still takes one", () => {
    parseOk(">f a=(1)");
    parseOk(">f a=1 b=(2)");
    parseOk("a=1 b=(2)");
    parseOk(">f declare x=(1)");
    parseOk("a=1 declare x=(1)");
    // After an assignment and then a redirection, or a redirection after the command
    // word, `name=(` is no assignment: bash stops at the `(`.
    for (const source of ["a=1 >f b=(2)", "x=1 2>&1 y=( )", "a=1 >f declare x=(1)"]) {
      expect(refusal(source)).toBe("syntax error near unexpected token `('");
    }
    expect(refusal("declare >f x=(1)")).toBe("syntax error near unexpected token `('");
    const command = simple("a=1 2>&1 declare x=1");
    expect(command.words.map((word) => word.type)).toEqual(["Word", "Word"]);
    expect(simple("declare x=1").words.map((word) => word.type)).toEqual(["Word", "Assignment"]);
  });

  it("inside double quotes, `${x-…}` ends past single-quoted braces", () => {
    // bash: `echo "${x:-'}'}"` prints '}' and `"${x:-'$y}'}"` expands $y.
    const source = `echo "\${x:-'}'}"`;
    const command = simple(source);
    expect(text(source, command.words[1] as never)).toBe(`"\${x:-'}'}"`);
    parseOk(`echo "\${x:-'{'}"`);
    parseOk(`echo "\${a1:='"'}b"`);
    expect(refusal(`echo "\${x:-'}"`)).toContain("unexpected EOF");
  });

  it("a newline inside `$(…)` does not read the enclosing line's here-documents", () => {
    // bash: `cat <<E - $(echo<nl>echo a)<nl>body<nl>E` prints `body`.
    const command = simple("cat <<E - $(echo\necho a)\nbody\nE\n");
    expect(command.redirects[0]?.heredoc?.body.parts).toMatchObject([{ value: "body\n" }]);
    const inner = simple("cat $(cat <<F\ninner\nF\n) <<E\nouter\nE\n");
    expect(inner.redirects[0]?.heredoc?.body.parts).toMatchObject([{ value: "outer\n" }]);
  });

  it("`!` and `time` without a command may end a statement, but not go to the background", () => {
    for (const source of ["! &", "time &", "a || ! &", "{ ! & }"]) {
      expect(refusal(source)).toBe("syntax error near unexpected token `&'");
    }
    for (const source of ["!", "! ;", "time", "time ;", "a && !", "{ ! ; }"]) parseOk(source);
  });

  it("after a compound command's redirections a closing word is a plain word", () => {
    for (const source of ["{ (a) >f }", "{ { a; } >f }", "{ for x in a; do :; done <in }"]) {
      expect(refusal(source)).toBe("syntax error near unexpected token `}'");
    }
    expect(refusal("if (a) >f then :; fi")).toBe("syntax error near unexpected token `then'");
    parseOk("{ (a) }");
    parseOk("{ (a) >f; }");
    parseOk("( (a) >f )");
  });
});
