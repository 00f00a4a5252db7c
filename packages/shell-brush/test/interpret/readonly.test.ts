import { describe, expect, it } from "vitest";
import { sh } from "./run.js";

// Expectations are bash 5.2's (`bash --norc --noprofile -c`, LC_ALL=C).
describe("refused assignments to a readonly variable", () => {
  it("an assignment statement abandons its line with status 1 (a one-line script ends)", async () => {
    for (const script of [
      "readonly X=1; X=2; echo st=$?",
      "readonly X=1; X=$(echo 2); echo st=$?",
      "readonly X=1; X+=2; echo st=$?",
      "readonly X=1; X[1]=2; echo st=$?",
      "readonly X=1; X=2 || echo or; echo st=$?",
      "readonly X=1; f() { X=2; echo in; }; f; echo after",
      "readonly X=1; while X=2; do :; done; echo st=$?",
    ]) {
      const result = await sh(script);
      expect(result, script).toMatchObject({ stdout: "", status: 1 });
      // (bash names a function's line `environment: line 1` under -c; the engine `main`.)
      expect(result.stderr, script).toMatch(/^(bash|main): line 1: X: readonly variable\n$/);
    }
    const trapped = await sh('readonly X=1; trap "echo trap" EXIT; X=2; echo no');
    expect(trapped).toMatchObject({ stdout: "trap\n", status: 1 });
    // Only the rest of that input line goes: the next line runs (bash's jump to the top level).
    const lines = await sh("readonly v=1\necho before\nv=2\necho after $?\nv=3; echo no\necho end");
    expect(lines).toMatchObject({ stdout: "before\nafter 1\nend\n", status: 0 });
  });

  it("ends only a subshell; eval and source fail with 1", async () => {
    const result = await sh(
      [
        "readonly X=1",
        "(X=2; echo no); echo sub=$?",
        'x=$(X=2; echo no); echo "cs=$? $x"',
        "eval 'X=2; echo no'; echo eval=$?",
        "echo 'X=2; echo no' > s; . ./s; echo source=$?",
      ].join("\n"),
    );
    expect(result.stdout).toBe("sub=1\ncs=1 \neval=1\nsource=1\n");
    expect(result.status).toBe(0);
  });

  it("a command's own assignment is refused and the command still runs", async () => {
    const result = await sh(
      "readonly X=1; X=2 echo hi; echo st=$?; f() { echo f$X; }; X=3 f; X=4 /bin/echo ext$X",
    );
    expect(result.stdout).toBe("hi\nst=0\nf1\next1\n");
    expect(result.stderr.match(/X: readonly variable/g)).toHaveLength(3);
  });

  it("builtins that assign fail with status 1 and the script goes on", async () => {
    const result = await sh(
      "readonly X=1; read X <<< a; echo $?; export X=2; echo $?; printf -v X a; echo $?; let X=2; echo $?",
    );
    expect(result.stdout).toBe("1\n1\n1\n1\n");
    expect(result.stderr).not.toContain("export:");
  });

  it("local cannot shadow a readonly global, nor declare +r lift it", async () => {
    const result = await sh(
      [
        "readonly X=1",
        "f() { local X=3; echo l=$?; declare X; echo d=$?; local -r Y=1; g; }",
        "g() { local Y=2; echo g=$? $Y; }",
        "f; declare +r X; echo r=$?; echo X=$X",
      ].join("\n"),
    );
    expect(result.stdout).toBe("l=1\nd=1\ng=0 2\nr=1\nX=1\n");
    expect(result.stderr).toContain("local: X: readonly variable");
    expect(result.stderr).toContain("declare: X: readonly variable");
  });
});
