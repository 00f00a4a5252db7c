import { describe, expect, it } from "vitest";
import { inspected } from "./helpers.js";

describe("inspectShell: delegated descendants and warnings (reference §7.3)", () => {
  it("each find action yields a descendant up to `;` or a `+` right after `{}`, and a warning", () => {
    const source =
      "find . -name x -exec grep -n + {} \\; -execdir wc -l {} + -ok rm {} ';' -okdir cat {} \";\"";
    const [find] = inspected(source).commands;
    expect(find?.descendant_execs.map((exec) => [exec.program, exec.argv, exec.source])).toEqual([
      ["grep", ["grep", "-n", "+", "{}"], "-exec grep -n + {} \\;"],
      ["wc", ["wc", "-l", "{}"], "-execdir wc -l {} +"],
      ["rm", ["rm", "{}"], "-ok rm {} ';'"],
      ["cat", ["cat", "{}"], '-okdir cat {} ";"'],
    ]);
    for (const exec of find?.descendant_execs ?? []) {
      expect(exec.reason).toContain("the external find process spawns this program itself");
    }
    const warnings = inspected(source).warnings;
    expect(warnings.filter((warning) => warning.startsWith("find "))).toEqual([
      `find -exec: ${find?.descendant_execs[0]?.reason}`,
      `find -execdir: ${find?.descendant_execs[0]?.reason}`,
      `find -ok: ${find?.descendant_execs[0]?.reason}`,
      `find -okdir: ${find?.descendant_execs[0]?.reason}`,
    ]);
  });

  it("Windows spellings keep their text and classify as find / wc (case 96)", () => {
    const source = "C:/Windows/System32/FIND.EXE . -exec WC.EXE -l {} +";
    const [find] = inspected(source).commands;
    expect(find?.program).toBe("C:/Windows/System32/FIND.EXE");
    expect(find?.descendant_execs).toHaveLength(1);
    expect(find?.descendant_execs[0]?.program).toBe("WC.EXE");
    expect(find?.descendant_execs[0]?.argv).toEqual(["WC.EXE", "-l", "{}"]);
  });

  it("a `+` not preceded by `{}` is an argument, not a terminator", () => {
    const [find] = inspected("find . -exec echo + {} + -print").commands;
    expect(find?.descendant_execs[0]?.argv).toEqual(["echo", "+", "{}"]);
    expect(find?.argv.at(-1)).toBe("-print");
  });

  it("pipeline, &&/||, background, ! and time are each noted once", () => {
    const warnings = inspected("a | b | c; d && e || f; g & h & ! i; ! j; time k; time l").warnings;
    expect(warnings).toEqual([
      "pipeline topology is not encoded: the stages of a pipeline are listed one after another",
      "`&&` / `||` relationships are not encoded: a listed command may not run",
      "background `&` is not encoded: a listed command may run concurrently with later ones",
      "`!` negation is not encoded",
      "the `time` modifier is not encoded",
    ]);
  });

  it("a plain script has no warnings", () => {
    expect(inspected("ls -la; echo done").warnings).toEqual([]);
  });

  it("every substitution is noted; unquoted ones also for splitting and globbing", () => {
    const quoted = inspected('echo "$(date)"').warnings;
    expect(quoted).toEqual([
      "a command substitution's value is unknown until it runs; its commands are in its nested inspection",
    ]);
    const unquoted = inspected("echo $(date)").warnings;
    expect(unquoted).toEqual([
      "a command substitution's value is unknown until it runs; its commands are in its nested inspection",
      "an unquoted command substitution's value is also subject to word splitting and pathname expansion",
    ]);
    // an assignment's value is not split
    expect(inspected("now=$(date)").warnings).toEqual(quoted);
  });

  it("warnings of a substitution's body stay in its nested inspection", () => {
    const inspection = inspected('echo "$(ls | wc -l)"');
    expect(inspection.warnings).not.toContain(
      "pipeline topology is not encoded: the stages of a pipeline are listed one after another",
    );
    expect(inspection.constructs[0]?.inspection?.warnings).toEqual([
      "pipeline topology is not encoded: the stages of a pipeline are listed one after another",
    ]);
  });

  it("one note per for loop", () => {
    const warnings = inspected("for a in 1; do for b in 2; do echo $a$b; done; done").warnings;
    expect(warnings.filter((warning) => warning.startsWith("for loop"))).toHaveLength(2);
  });
});
