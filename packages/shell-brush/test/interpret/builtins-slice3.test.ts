// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratch, sh } from "./run.js";

describe("interpreter: call stack, traps and the builtins of slice 3", () => {
  it("keeps FUNCNAME, BASH_SOURCE and BASH_LINENO as a call stack, and caller reads it", async () => {
    const result = await sh(
      [
        'inner() { echo "${FUNCNAME[*]} | ${BASH_LINENO[*]} | ${BASH_SOURCE[*]}"; caller 0; }',
        "outer() {",
        "  inner",
        "}",
        "outer",
        "caller; echo $?",
      ].join("\n"),
    );
    expect(result.stdout).toBe("inner outer | 3 5 | main main\n3 outer main\n1\n");
  });

  it("runs DEBUG traps with BASH_COMMAND, and skips a command under extdebug when the trap fails", async () => {
    const result = await sh(
      "trap 'echo \"> $BASH_COMMAND\"' DEBUG\necho one\ntrap - DEBUG\n" +
        "shopt -s extdebug\ntrap '[[ $BASH_COMMAND != *skip* ]]' DEBUG\necho kept\necho skip me\necho end",
    );
    expect(result.stdout).toBe("> echo one\none\n> trap - DEBUG\nkept\nend\n");
  });

  it("keeps a directory stack with pushd, popd and dirs", async () => {
    const root = scratch();
    mkdirSync(join(root, "a"));
    const result = await sh(
      `HOME=${root}; cd ~; pushd a >/dev/null; dirs; popd >/dev/null; pwd; popd; echo $?`,
      root,
    );
    expect(result.stdout).toBe(`~/a ~\n${root}\n1\n`);
    expect(result.stderr).toBe("bash: line 1: popd: directory stack empty\n");
  });

  it("hashes programs, expands aliases, and kills only itself", async () => {
    const result = await sh(
      [
        "hash -p /some/where tool; hash -t tool; type tool",
        "shopt -s expand_aliases; alias say='echo said'",
        "say hi; type say; unalias say",
        "kill -9999 $$; echo $?",
        "kill -s TERM $$; echo not reached",
      ].join("\n"),
    );
    expect(result.stdout).toBe(
      "/some/where\ntool is hashed (/some/where)\nsaid hi\nsay is aliased to `echo said'\n1\n",
    );
    expect(result.stderr).toBe("bash: line 4: kill: 9999: invalid signal specification\n");
    expect(result.status).toBe(143);
  });

  it("reports limits with ulimit and remembers a limit it was given", async () => {
    const result = await sh("ulimit -n >/dev/null && echo read; ulimit -f 100; ulimit -f");
    expect(result.stdout).toBe("read\n100\n");
  });

  it("prints functions as bash does (declare -f, declare -F, type)", async () => {
    const result = await sh(
      [
        "f() { echo a >/dev/null 2>&1; if true; then x=1; fi; for i in 1 2; do :; done; }",
        "g() ( echo sub )",
        "declare -f f; type g; declare -F f; declare -F",
      ].join("\n"),
    );
    expect(result.stdout).toBe(
      [
        "f () ",
        "{ ",
        "    echo a > /dev/null 2>&1;",
        "    if true; then",
        "        x=1;",
        "    fi;",
        "    for i in 1 2;",
        "    do",
        "        :;",
        "    done",
        "}",
        "g is a function",
        "g () ",
        "{ ",
        "    ( echo sub )",
        "}",
        "f",
        "declare -f f",
        "declare -f g",
        "",
      ].join("\n"),
    );
  });
});
