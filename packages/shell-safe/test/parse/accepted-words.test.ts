// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { describe, expect, it } from "vitest";
import { isGlobWord, literalValue, wordVariables } from "../../src/index.js";
import { accept, argvs, commands } from "./helpers/parse-helpers.js";

function firstCommand(source: string) {
  const command = commands(accept(source))[0];
  if (command === undefined) throw new Error("no command");
  return command;
}

describe("variables (reference §3.2, case 26)", () => {
  it.each([
    ["echo $HOME", "⟨$HOME⟩"],
    ["echo ${HOME}", "⟨$HOME⟩"],
    ["echo $HOME/x", "⟨$HOME⟩/x"],
    ["echo foo$HOME", "foo⟨$HOME⟩"],
    ['echo "$HOME/x"', '⟨"$HOME"⟩/x'],
    ["echo pre${X}.log", "pre⟨$X⟩.log"],
    ["echo $HOME_x", "⟨$HOME_x⟩"],
    ["echo $HO\\\nME", "⟨$HOME⟩"],
  ])("%j", (source, rendered) => {
    expect(argvs(source)[0]?.[1]).toBe(rendered);
  });

  it("variable parts carry name, braces, quoting and offsets", () => {
    const word = firstCommand('echo pre${X}."$HOME"').words[1];
    expect(word?.parts[1]).toEqual({
      type: "variable",
      name: "X",
      braced: true,
      quoted: false,
      start: 8,
      end: 12,
    });
    expect(word?.parts[3]).toEqual({
      type: "double-quoted",
      start: 13,
      end: 20,
      parts: [{ type: "variable", name: "HOME", braced: false, quoted: true, start: 14, end: 19 }],
    });
    expect(word === undefined ? [] : wordVariables(word)).toEqual(["X", "HOME"]);
  });

  it("ls $DIR/*.rs is a var-glob; echo hi > $HOME/out has a variable target (case 27)", () => {
    const pattern = firstCommand("ls $DIR/*.rs").words[1];
    expect(pattern !== undefined && isGlobWord(pattern)).toBe(true);
    expect(pattern === undefined ? [] : wordVariables(pattern)).toEqual(["DIR"]);
    const redirection = firstCommand("echo hi > $HOME/out").redirections[0];
    expect(redirection?.kind === "file" ? wordVariables(redirection.target) : []).toEqual(["HOME"]);
  });

  it("echo \\$HOME is the literal $HOME (case 28)", () => {
    const word = firstCommand("echo \\$HOME").words[1];
    expect(word === undefined ? null : literalValue(word)).toBe("$HOME");
    expect(word?.parts[0]).toEqual({ type: "escaped", value: "$", start: 5, end: 7 });
  });
});

describe("quote removal", () => {
  it.each([
    ["echo 'a b'", "a b"],
    ["echo 'a\\b'", "a\\b"],
    ['echo "a\\"b"', 'a"b'],
    ['echo "a\\b"', "a\\b"],
    ['echo "a\\\\b"', "a\\b"],
    ['echo "a\\$b"', "a$b"],
    ['echo "a\\`b"', "a`b"],
    ["echo a\\ b", "a b"],
    ["echo ec\\\nho", "echo"],
    ['echo "a\\\nb"', "ab"],
    ["echo 'a\\\nb'", "a\\\nb"],
    ["echo \"'\"'\"'", "'\""],
    ["echo a''b\"\"c", "abc"],
    ["echo ''", ""],
    ["echo é", "é"],
  ])("%j", (source, value) => {
    const word = firstCommand(source).words[1];
    expect(word === undefined ? undefined : literalValue(word)).toBe(value);
  });
});

describe("tilde (spec §7)", () => {
  it("~ and ~/x at word start are tilde parts; elsewhere or quoted ~ is literal", () => {
    expect(argvs("echo ~ ~/x a~ '~' \\~/x ~\\\n/y")).toEqual([
      ["echo", "⟨~⟩", "⟨~⟩/x", "a~", "~", "~/x", "⟨~⟩/y"],
    ]);
    expect(firstCommand("echo ~/x").words[1]?.parts[0]).toEqual({
      type: "tilde",
      start: 5,
      end: 6,
    });
  });
  it("a tilde redirection target expands too", () => {
    const redirection = firstCommand("echo > ~/out").redirections[0];
    expect(redirection?.kind === "file" ? redirection.target.parts[0]?.type : null).toBe("tilde");
  });
  it("x=~ with the = quoted is literal (not assignment-shaped)", () => {
    expect(argvs("echo x'='~ x\\=~")).toEqual([["echo", "x=~", "x=~"]]);
  });
});

describe("redirections (reference §3.2, case 30)", () => {
  it.each([
    [
      "cmd 2> err",
      {
        kind: "file",
        fd: 2,
        explicitFd: true,
        operator: ">",
        start: 4,
        end: 10,
        operatorSpan: { start: 5, end: 6 },
      },
    ],
    [
      "cmd 2>> err",
      {
        kind: "file",
        fd: 2,
        explicitFd: true,
        operator: ">>",
        start: 4,
        end: 11,
        operatorSpan: { start: 5, end: 7 },
      },
    ],
    ["cmd 1> out", { kind: "file", fd: 1, explicitFd: true, operator: ">", start: 4, end: 10 }],
    ["cmd 1>>out", { kind: "file", fd: 1, explicitFd: true, operator: ">>", start: 4, end: 10 }],
    ["cmd > out", { kind: "file", fd: 1, explicitFd: false, operator: ">", start: 4, end: 9 }],
    ["cmd >> out", { kind: "file", fd: 1, explicitFd: false, operator: ">>", start: 4, end: 10 }],
    ["cmd 0< in", { kind: "file", fd: 0, explicitFd: true, operator: "<", start: 4, end: 9 }],
    ["cmd < in", { kind: "file", fd: 0, explicitFd: false, operator: "<", start: 4, end: 8 }],
    ["cmd 2>&1", { kind: "duplicate", fd: 2, from: 1, start: 4, end: 8 }],
    ["cmd 2\\\n>err", { kind: "file", fd: 2, explicitFd: true, start: 4, end: 11 }],
  ])("%j", (source, expected) => {
    expect(firstCommand(source).redirections[0]).toMatchObject(expected);
  });

  it('cmd > out 2>&1 keeps source order; head -2 and a quoted "2">f are arguments', () => {
    expect(firstCommand("cmd > out 2>&1").redirections.map((r) => r.kind)).toEqual([
      "file",
      "duplicate",
    ]);
    expect(argvs("head -2")).toEqual([["head", "-2"]]);
    const quoted = firstCommand('echo "2">f');
    expect(quoted.words.map((word) => literalValue(word))).toEqual(["echo", "2"]);
    expect(quoted.redirections[0]).toMatchObject({ fd: 1, explicitFd: false });
  });

  it("redirections may precede the program and sit between arguments", () => {
    const command = firstCommand("<in cat a 2>e b");
    expect(command.words.map((word) => literalValue(word))).toEqual(["cat", "a", "b"]);
    expect(command.redirections.map((r) => r.fd)).toEqual([0, 2]);
    expect([command.start, command.end]).toEqual([0, 15]);
  });

  it("find -exec … {} \\; keeps the empty braces and the escaped semicolon", () => {
    expect(argvs("find . -exec cat {} \\;")).toEqual([["find", ".", "-exec", "cat", "{}", ";"]]);
  });
});
