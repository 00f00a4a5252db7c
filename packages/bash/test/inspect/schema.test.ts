// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { describe, expect, it } from "vitest";
import { SHELL_INSPECTION_SCHEMA_VERSION } from "../../src/index.js";
import { inspected, programs } from "./helpers.js";

const CASE_50 =
  'ls -1 $(find . -name "*.rs" -type f -exec wc -l {} + 2>/dev/null | sort -nr | head -10)';

describe("inspectShell: schema version 1 (reference §7.1)", () => {
  it("carries schema_version 1 and the exact source", () => {
    const source = "echo  'a  b'   # comment";
    const inspection = inspected(source);
    expect(SHELL_INSPECTION_SCHEMA_VERSION).toBe(1);
    expect(inspection.source).toBe(source);
  });

  it("has exactly the documented JSON field names at every level", () => {
    const inspection = JSON.parse(JSON.stringify(inspected(`${CASE_50} >out.txt`)));
    expect(Object.keys(inspection).sort()).toEqual(
      ["commands", "constructs", "schema_version", "source", "warnings"].sort(),
    );
    expect(Object.keys(inspection.commands[0]).sort()).toEqual(
      ["argv", "descendant_execs", "program", "redirects", "source"].sort(),
    );
    expect(Object.keys(inspection.commands[0].redirects[0]).sort()).toEqual(
      ["fd", "operation", "target"].sort(),
    );
    expect(Object.keys(inspection.constructs[0]).sort()).toEqual(
      ["body", "inspection", "kind", "quoted", "source"].sort(),
    );
    const find = inspection.constructs[0].inspection.commands[0];
    expect(Object.keys(find.descendant_execs[0]).sort()).toEqual(
      ["argv", "program", "reason", "source"].sort(),
    );
  });

  it("case 93: the compound example of case 50", () => {
    const inspection = inspected(CASE_50);
    expect(inspection.commands).toHaveLength(1);
    const [ls] = inspection.commands;
    expect(ls?.program).toBe("ls");
    expect(ls?.source).toBe(CASE_50);
    expect(inspection.constructs).toHaveLength(1);
    const [substitution] = inspection.constructs;
    expect(substitution?.kind).toBe("command_substitution");
    expect(substitution?.quoted).toBe(false);
    expect(substitution?.source).toBe(CASE_50.slice(6));
    expect(substitution?.body).toBe(CASE_50.slice(8, -1));
    const nested = substitution?.inspection;
    expect(nested?.source).toBe(substitution?.body);
    expect(nested?.commands.map((command) => command.program)).toEqual(["find", "sort", "head"]);
    const find = nested?.commands[0];
    expect(find?.descendant_execs.map((exec) => exec.program)).toEqual(["wc"]);
    expect(find?.descendant_execs[0]?.argv).toEqual(["wc", "-l", "{}"]);
    expect(find?.descendant_execs[0]?.source).toBe("-exec wc -l {} +");
    expect(find?.redirects).toEqual([{ fd: 2, operation: "write", target: "/dev/null" }]);
    expect(nested?.warnings.filter((warning) => warning.startsWith("find -exec: "))).toHaveLength(
      1,
    );
  });

  describe("commands", () => {
    it("lists stages in source order, flattened across ; && || | and newlines", () => {
      expect(programs("a; b && c || d | e\nf &")).toEqual(["a", "b", "c", "d", "e", "f"]);
    });

    it("source spans the stage's assignments, words and redirections, separators excluded", () => {
      const inspection = inspected("X=1 cat <in  file >out ; wc -l");
      expect(inspection.commands.map((command) => command.source)).toEqual([
        "X=1 cat <in  file >out",
        "wc -l",
      ]);
    });

    it("program is the static name with quotes and escapes removed; argv keeps the raw words", () => {
      const [command] = inspected(`'l'"s" \\-la "$HOME" *.txt ~/x`).commands;
      expect(command?.program).toBe("ls");
      expect(command?.argv).toEqual([`'l'"s"`, "\\-la", '"$HOME"', "*.txt", "~/x"]);
    });

    it("program is null when the stage has no command word", () => {
      const [command] = inspected("A=1 B=2").commands;
      expect(command).toEqual({
        source: "A=1 B=2",
        program: null,
        argv: [],
        redirects: [],
        descendant_execs: [],
      });
    });

    it("descendant_execs is empty for programs other than find", () => {
      expect(inspected("ls -exec wc {} +").commands[0]?.descendant_execs).toEqual([]);
    });
  });

  describe("redirects", () => {
    it("maps every operator to its operation, with the fd and the raw target", () => {
      const inspection = inspected(
        "tool <in >out >>log <>both >|forced 2<&0 3>&1 >&2 &>all &>>more <<<'here string' 2>\"$TMPDIR/e\" >&file",
      );
      expect(inspection.commands[0]?.redirects).toEqual([
        { fd: null, operation: "read", target: "in" },
        { fd: null, operation: "write", target: "out" },
        { fd: null, operation: "append", target: "log" },
        { fd: null, operation: "read_write", target: "both" },
        { fd: null, operation: "clobber", target: "forced" },
        { fd: 2, operation: "duplicate_input", target: "0" },
        { fd: 3, operation: "duplicate_output", target: "1" },
        { fd: null, operation: "duplicate_output", target: "2" },
        { fd: null, operation: "output_and_error", target: "all" },
        { fd: null, operation: "append_output_and_error", target: "more" },
        { fd: null, operation: "here_string", target: "'here string'" },
        { fd: 2, operation: "write", target: '"$TMPDIR/e"' },
        { fd: null, operation: "output_and_error", target: "file" },
      ]);
    });

    it("a redirect target's substitution is a construct of the stage's inspection", () => {
      const inspection = inspected("echo hi >$(mktemp)");
      expect(inspection.constructs.map((construct) => construct.source)).toEqual(["$(mktemp)"]);
      expect(inspection.constructs[0]?.inspection?.commands[0]?.program).toBe("mktemp");
    });
  });

  describe("constructs (case 94)", () => {
    it("arithmetic has no nested inspection; backquotes do", () => {
      const inspection = inspected('echo "$((1 + 2))" `pwd`');
      expect(inspection.constructs).toEqual([
        {
          kind: "arithmetic_expansion",
          source: "$((1 + 2))",
          body: "1 + 2",
          quoted: true,
          inspection: null,
        },
        {
          kind: "backquote_substitution",
          source: "`pwd`",
          body: "pwd",
          quoted: false,
          inspection: {
            schema_version: 1,
            source: "pwd",
            commands: [
              { source: "pwd", program: "pwd", argv: ["pwd"], redirects: [], descendant_execs: [] },
            ],
            constructs: [],
            warnings: [],
          },
        },
      ]);
    });

    it("lists only constructs written directly in this source, in source order", () => {
      const inspection = inspected('X=$(a) b "$(c $(d))" >$((2 * 3))');
      expect(inspection.constructs.map((construct) => construct.source)).toEqual([
        "$(a)",
        "$(c $(d))",
        "$((2 * 3))",
      ]);
      const nested = inspection.constructs[1]?.inspection;
      expect(nested?.source).toBe("c $(d)");
      expect(nested?.constructs.map((construct) => construct.source)).toEqual(["$(d)"]);
      expect(nested?.constructs[0]?.inspection?.commands[0]?.program).toBe("d");
    });

    it("accepts state-free arithmetic", () => {
      for (const expression of [
        "$((1 + 2 * (3 - 4)))",
        "$((1 ? 2 : 3))",
        "$((16#ff & 7))",
        "$[4 + 5]",
        "$((0x10 << 2 == 64 && !0))",
        "$(( ))",
      ]) {
        const construct = inspected(`echo ${expression}`).constructs[0];
        expect(construct?.kind).toBe("arithmetic_expansion");
        expect(construct?.source).toBe(expression);
      }
    });

    it("accepts state-free array indexes and substring bounds", () => {
      expect(inspected("echo ${array[1 + 2]} ${value:1 + 2:3} ${all[@]} ${#x}").constructs).toEqual(
        [],
      );
    });
  });

  describe("for loops", () => {
    it("inspects the value words and flattens the body into commands", () => {
      const inspection = inspected('for f in *.log $(ls /var); do gzip "$f"; wc -c "$f.gz"; done');
      expect(inspection.commands.map((command) => command.program)).toEqual(["gzip", "wc"]);
      expect(inspection.constructs.map((construct) => construct.source)).toEqual(["$(ls /var)"]);
      expect(inspection.warnings).toContain(
        "for loop over `f`: the values are inspected before the flattened body, whose commands are listed once, not per iteration",
      );
    });
  });
});
