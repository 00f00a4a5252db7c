// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { describe, expect, it } from "vitest";
import { parseBash } from "../../src/index.js";

describe("syntax errors", () => {
  it.each([
    ["echo )", "syntax error near unexpected token `)'", 1],
    ["if true; then fi", "syntax error near unexpected token `fi'", 1],
    ["echo ok\n{ }", "syntax error near unexpected token `}'", 2],
    ["a && || b", "syntax error near unexpected token `||'", 1],
    ["echo a ;; b", "syntax error near unexpected token `;;'", 1],
    ["echo >", "syntax error near unexpected token `newline'", 1],
    ["for i in a b c", "syntax error: unexpected end of file", 1],
    ["while true; do done", "syntax error near unexpected token `done'", 1],
    ["f() echo", "syntax error near unexpected token `echo'", 1],
    ["case x in a echo;; esac", "syntax error near unexpected token `echo'", 1],
    ["echo $(", "unexpected EOF while looking for matching `)'", 1],
    ["x\necho 'abc", "unexpected EOF while looking for matching `''", 2],
    ['echo "abc', "unexpected EOF while looking for matching `\"'", 1],
    ["echo `x", "unexpected EOF while looking for matching ``'", 1],
    ["echo ${a", "unexpected EOF while looking for matching `}'", 1],
    ["[[ a\n ]]", "syntax error near unexpected token `newline'", 1],
    ["[[ -f ]]", "syntax error near unexpected token `]]'", 1],
    ["a | ! b", "syntax error near unexpected token `!'", 1],
  ])("%j", (source, message, line) => {
    const result = parseBash(source);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toBe(message);
    expect(result.error.line).toBe(line);
    expect(result.error.offset).toBeGreaterThanOrEqual(0);
    expect(result.error.offset).toBeLessThanOrEqual(source.length);
  });

  it("points at the offending token", () => {
    const result = parseBash("echo a\nif x; then y; fi fi");
    expect(result).toMatchObject({ ok: false, error: { offset: 24, line: 2 } });
  });

  it("refuses coproc with a clear error", () => {
    expect(parseBash("echo\ncoproc cat")).toEqual({
      ok: false,
      error: { message: "coproc: coprocesses are not supported by this shell", line: 2, offset: 5 },
    });
  });

  it("refuses nesting beyond the limit instead of overflowing the stack", () => {
    const deep = `${"$(".repeat(500)}x${")".repeat(500)}`;
    const result = parseBash(`echo ${deep}`);
    expect(result).toMatchObject({
      ok: false,
      error: { message: "nesting deeper than 200 levels" },
    });
    expect(parseBash(`echo ${"$(".repeat(50)}x${")".repeat(50)}`).ok).toBe(true);
  });

  it("never throws on arbitrary input", () => {
    for (const source of [
      "$((",
      "${",
      "<<",
      "((",
      "[[",
      "`",
      "$'",
      "\\",
      "case",
      "for ((",
      "a=(",
      "{fd}>",
    ]) {
      expect(typeof parseBash(source).ok).toBe("boolean");
    }
  });
});
