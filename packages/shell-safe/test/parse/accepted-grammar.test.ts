import { describe, expect, it } from "vitest";
import { accept, argvs, commands } from "./helpers/parse-helpers.js";

describe("reference §3.2 and case 25: structure", () => {
  it("echo hi is one stage with exact word spans", () => {
    const script = accept("echo hi");
    expect(script.lists).toHaveLength(1);
    const [command] = commands(script);
    expect(command?.words.map((word) => [word.start, word.end])).toEqual([
      [0, 4],
      [5, 7],
    ]);
    expect(command?.words[1]?.parts).toEqual([{ type: "literal", value: "hi", start: 5, end: 7 }]);
    expect([script.start, script.end]).toEqual([0, 7]);
  });

  it("ls *.rs flags the unquoted star as a glob part", () => {
    const [, pattern] = commands(accept("ls *.rs"))[0]?.words ?? [];
    expect(pattern?.parts).toEqual([
      { type: "glob", value: "*", start: 3, end: 4 },
      { type: "literal", value: ".rs", start: 4, end: 7 },
    ]);
  });

  it('echo "a*b" is one quoted literal, not a glob', () => {
    const word = commands(accept('echo "a*b"'))[0]?.words[1];
    expect(word?.parts).toEqual([
      {
        type: "double-quoted",
        start: 5,
        end: 10,
        parts: [{ type: "quoted-text", value: "a*b", start: 6, end: 9 }],
      },
    ]);
  });

  it("a && b || c ; d: and-or links and terminators with offsets", () => {
    const script = accept("a && b || c ; d");
    const [first, second] = script.lists;
    expect(
      first?.tail.map((link) => [link.operator.op, link.operator.start, link.operator.end]),
    ).toEqual([
      ["&&", 2, 4],
      ["||", 7, 9],
    ]);
    expect(first?.terminator).toEqual({ type: "operator", op: ";", start: 12, end: 13 });
    expect([first?.start, first?.end]).toEqual([0, 13]);
    expect(second?.head.stages[0]?.words[0]?.start).toBe(14);
    expect(second?.terminator).toBeNull();
  });

  it("a | b | c is one pipeline of three stages; pipes carry offsets", () => {
    const pipeline = accept("a | b | c").lists[0]?.head;
    expect(pipeline?.stages).toHaveLength(3);
    expect(pipeline?.pipes.map((pipe) => [pipe.start, pipe.end])).toEqual([
      [2, 3],
      [6, 7],
    ]);
    expect([pipeline?.start, pipeline?.end]).toEqual([0, 9]);
  });

  it("cat $FILE | wc is one pipeline of two stages (case 26)", () => {
    const script = accept("cat $FILE | wc");
    expect(script.lists[0]?.head.stages).toHaveLength(2);
  });

  it("unquoted newlines separate commands (spec §7); quoted ones do not", () => {
    const script = accept("echo a\necho b");
    expect(script.lists.map((list) => list.terminator?.op ?? null)).toEqual(["\n", null]);
    expect(script.lists[0]?.terminator).toMatchObject({ start: 6, end: 7 });
    expect(argvs("echo 'a\nb'")).toEqual([["echo", "a\nb"]]);
    expect(argvs('echo "a\nb"')).toEqual([["echo", "a\nb"]]);
  });

  it("newlines may follow |, && and || and lead or trail the script", () => {
    expect(argvs("\n\na |\n\nb &&\nc ||\n d\n\n")).toEqual([["a"], ["b"], ["c"], ["d"]]);
  });

  it("a trailing ; is accepted like bash", () => {
    expect(accept("echo a;").lists[0]?.terminator).toMatchObject({ op: ";", start: 6, end: 7 });
    expect(argvs("echo a ; \n echo b ;")).toEqual([
      ["echo", "a"],
      ["echo", "b"],
    ]);
  });
});

describe("comments (spec §7, A50)", () => {
  it("# at the start of a word runs to the newline", () => {
    expect(argvs("echo ok # rm x")).toEqual([["echo", "ok"]]);
    expect(argvs("echo ok #'\ntouch p")).toEqual([
      ["echo", "ok"],
      ["touch", "p"],
    ]);
  });

  it("# inside a word is literal", () => {
    expect(argvs("echo x#'; rm v'")).toEqual([["echo", "x#; rm v"]]);
    expect(argvs("echo a#b \\#c '#d' \"#e\"")).toEqual([["echo", "a#b", "#c", "#d", "#e"]]);
  });

  it("# right after an operator starts a comment", () => {
    expect(argvs("echo a;#b\necho c")).toEqual([
      ["echo", "a"],
      ["echo", "c"],
    ]);
  });

  it("a backslash-newline does not continue a comment", () => {
    expect(argvs("echo a # x \\\necho y")).toEqual([
      ["echo", "a"],
      ["echo", "y"],
    ]);
  });
});
