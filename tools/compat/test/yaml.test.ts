import { describe, expect, it } from "vitest";
import { parseYaml } from "../src/yaml.js";

describe("parseYaml (corpus subset)", () => {
  it("reads mappings, indentless sequences and mappings in sequences", () => {
    const text =
      "name: Basic\ncases:\n- name: one\n  args:\n  - -c\n  - echo hi\n  known_failure: true\n- name: two\n  expected_exit_code: 3\n";
    expect(parseYaml(text)).toEqual({
      name: "Basic",
      cases: [
        { name: "one", args: ["-c", "echo hi"], known_failure: true },
        { name: "two", expected_exit_code: 3 },
      ],
    });
  });

  it("folds multi-line single-quoted scalars like YAML (blank line = newline)", () => {
    expect(parseYaml("stdin: 'a=1\n\n  echo ''$a''\n\n  '\n")).toEqual({
      stdin: "a=1\necho '$a'\n",
    });
    expect(parseYaml("name: 'one\n  two'\n")).toEqual({ name: "one two" });
  });

  it("decodes double-quoted escapes and continuations", () => {
    expect(parseYaml('stdin: "a\\tb\\n\\"q\\"\\x41\\u00e9\\\n  c"\n')).toEqual({
      stdin: 'a\tb\n"q"Aéc',
    });
  });

  it("reads plain scalars, numbers, booleans and nested mappings", () => {
    expect(parseYaml("a: plain text # comment\nb: 5.2\nc: false\nenv:\n  X: y\n")).toEqual({
      a: "plain text",
      b: 5.2,
      c: false,
      env: { X: "y" },
    });
  });

  it("refuses syntax outside the subset instead of misreading it", () => {
    expect(() => parseYaml("a: |\n  block\n")).toThrow(/unsupported/);
    expect(() => parseYaml("a: [1, 2]\n")).toThrow(/unsupported/);
  });
});
