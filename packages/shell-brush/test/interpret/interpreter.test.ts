// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { matchPattern } from "@agent-bridle/bash";
import { passThroughAccess } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { type ExternalRunner, Interpreter } from "../../src/index.js";
import { PATH, scratch, sh } from "./run.js";

describe("interpreter: commands and control flow", () => {
  it("runs lists, and-or and negation with $?", async () => {
    const result = await sh("true && echo a; false || echo b; ! true; echo $?; false; echo $?");
    expect(result.stdout).toBe("a\nb\n1\n1\n");
  });

  it("reports a missing command like bash (status 127)", async () => {
    const result = await sh("echo one\nnosuchcommand-xyz\necho $?");
    expect(result.stdout).toBe("one\n127\n");
    expect(result.stderr).toBe("bash: line 2: nosuchcommand-xyz: command not found\n");
  });

  it("runs if, while, until, for and case with fall-through", async () => {
    const result = await sh(
      [
        "if false; then echo no; elif true; then echo elif; else echo else; fi",
        "i=0; while (( i < 3 )); do i=$((i+1)); done; echo $i",
        "until [ $i -eq 0 ]; do i=$((i-1)); done; echo $i",
        "for x in a b c; do [ $x = b ] && continue; echo $x; done",
        "case abc in a*) echo one ;& x) echo two ;; *) echo three ;; esac",
        "case abc in a*) echo A ;;& *c) echo C ;; esac",
      ].join("\n"),
    );
    expect(result.stdout).toBe("elif\n3\n0\na\nc\none\ntwo\nA\nC\n");
  });

  it("supports functions with local, return and recursion", async () => {
    const result = await sh(
      "x=global; f() { local x=inner; echo $x $1; return 4; }; f arg; echo $? $x\n" +
        "fact() { if (( $1 <= 1 )); then echo 1; else echo $(( $1 * $(fact $(( $1 - 1 ))) )); fi; }; fact 5",
    );
    expect(result.stdout).toBe("inner arg\n4 global\n120\n");
  });

  it("runs subshells on a copy of the state, and exit ends only the subshell", async () => {
    const result = await sh("x=1; (x=2; echo $x; exit 3); echo $? $x");
    expect(result.stdout).toBe("2\n3 1\n");
  });

  it("honours set -e, set -u and pipefail", async () => {
    expect((await sh("set -e; echo a; false; echo b")).stdout).toBe("a\n");
    expect((await sh("set -e; if false; then :; fi; false || true; echo ok")).stdout).toBe("ok\n");
    const unset = await sh("set -u; echo $nope; echo after");
    expect(unset.status).toBe(1);
    expect(unset.stderr).toBe("bash: line 1: nope: unbound variable\n");
    expect((await sh("false | true; echo $?; set -o pipefail; false | true; echo $?")).stdout).toBe(
      "0\n1\n",
    );
  });

  it("pipes builtins and external commands", async () => {
    const result = await sh(
      "printf 'b\\na\\n' | sort | tr a-z A-Z; echo x | { read v; echo got $v; }",
    );
    expect(result.stdout).toBe("A\nB\ngot x\n");
  });

  it("redirects to files, appends, duplicates and reads here-documents", async () => {
    const cwd = scratch();
    const result = await sh(
      "echo one > f; echo two >> f; cat < f; nosuch 2>&1 | cat; { echo out; echo err >&2; } &> both\ncat <<EOF\nhi $((1+1))\nEOF\ncat <<< 'here string'",
      cwd,
    );
    expect(result.stdout).toBe(
      "one\ntwo\nbash: line 1: nosuch: command not found\nhi 2\nhere string\n",
    );
    expect(readFileSync(join(cwd, "both"), "utf8")).toBe("out\nerr\n");
  });

  it("runs eval and source, and shift", async () => {
    const cwd = scratch();
    writeFileSync(join(cwd, "lib.sh"), "sourced=yes\n");
    const result = await sh(
      "eval 'a=1; echo $a'; . ./lib.sh; echo $sourced; set -- 1 2 3; shift; echo $# $@",
      cwd,
    );
    expect(result.stdout).toBe("1\nyes\n2 2 3\n");
  });

  it("uses the pluggable external runner", async () => {
    const calls: string[][] = [];
    const runner: ExternalRunner = {
      run: async (request) => {
        calls.push([...request.argv]);
        request.stdout(Buffer.from(`ran ${request.argv.join(" ")} ${request.env.FOO}\n`));
        return { status: 5 };
      },
    };
    const interpreter = new Interpreter({
      cwd: scratch(),
      env: { PATH },
      runner,
      access: passThroughAccess,
    });
    const result = await interpreter.run("FOO=bar grep -l; echo $?");
    expect(result.stdout.toString()).toBe("ran grep -l bar\n5\n");
    expect(calls).toEqual([["grep", "-l"]]);
  });
});

describe("interpreter: expansions", () => {
  it("expands parameters with the common operators", async () => {
    const result = await sh(
      [
        'v=hello.tar.gz; e=; echo "${u:-d} ${e:-d} ${e-d} ${v:+set} ${#v}"',
        'echo "${v#*.} ${v##*.} ${v%.*} ${v%%.*}"',
        'echo "${v/l/L} ${v//l/L} ${v^^} ${v:1:3} ${v: -2}"',
        'echo "${n:=assigned} $n"',
        "W=ABC; echo ${W,,} ${W,}",
      ].join("\n"),
    );
    expect(result.stdout).toBe(
      "d d  set 12\ntar.gz gz hello.tar hello\nheLlo.tar.gz heLLo.tar.gz HELLO.TAR.GZ ell gz\nassigned assigned\nabc aBC\n",
    );
  });

  it("reports ${x:?} and exits", async () => {
    const result = await sh("echo ${x:?gone}; echo never");
    expect(result).toEqual({ stdout: "", stderr: "bash: line 1: x: gone\n", status: 1 });
  });

  it("splits on IFS and keeps quoted fields", async () => {
    const result = await sh(
      'set -- "a b" c; for w in "$@"; do echo "[$w]"; done; x="1  2"; for w in $x; do echo "<$w>"; done; IFS=:; y=a::b; for w in $y; do echo "{$w}"; done; echo "$*"',
    );
    expect(result.stdout).toBe("[a b]\n[c]\n<1>\n<2>\n{a}\n{}\n{b}\na b:c\n");
  });

  it("substitutes commands (trailing newlines stripped) and arithmetic", async () => {
    const result = await sh(
      'x=$(printf "a\\n\\n"); echo "[$x]" $((2 ** 8)) `echo bq`; (( 3 > 2 )) && echo yes',
    );
    expect(result.stdout).toBe("[a] 256 bq\nyes\n");
  });

  it("expands pathnames like bash (dotfiles hidden, no match stays literal)", async () => {
    const cwd = scratch();
    for (const name of ["b.txt", "a.txt", ".hidden.txt", "c.md"])
      writeFileSync(join(cwd, name), "");
    mkdirSync(join(cwd, "sub"));
    writeFileSync(join(cwd, "sub", "x.txt"), "");
    const result = await sh(
      "echo *.txt; echo [ab].t?t; echo */*.txt; echo *.none; echo '*.txt'",
      cwd,
    );
    expect(result.stdout).toBe("a.txt b.txt\na.txt b.txt\nsub/x.txt\n*.none\n*.txt\n");
  });

  it("matches [[ ]] patterns and =~ with BASH_REMATCH", async () => {
    const result = await sh(
      '[[ abc == a* ]] && echo glob; [[ abc == "a*" ]] || echo quoted; [[ ab12 =~ ([a-z]+)([0-9]+) ]] && echo ${BASH_REMATCH[2]} ${BASH_REMATCH[1]}; [[ -n x && ! -z x ]] && echo logic',
    );
    expect(result.stdout).toBe("glob\nquoted\n12 ab\nlogic\n");
  });

  it("compiles bash patterns", () => {
    expect(matchPattern("[!a-c]x", "dx")).toBe(true);
    expect(matchPattern("[[:digit:]]*", "5abc")).toBe(true);
    expect(matchPattern("@(foo|bar).c", "bar.c")).toBe(true);
    expect(matchPattern("\\*", "a")).toBe(false);
  });
});

describe("interpreter: builtins", () => {
  it("implements echo and printf", async () => {
    const result = await sh(
      "echo -n a; echo -e 'b\\tc'; printf '%s=%d %05.1f|%-3s|%x\\n' k 42 3.14159 ab 255; printf '%s,' 1 2 3; echo",
    );
    expect(result.stdout).toBe("ab\tc\nk=42 003.1|ab |ff\n1,2,3,\n");
  });

  it("implements test and [ with string, numeric and file tests", async () => {
    const cwd = scratch();
    writeFileSync(join(cwd, "file"), "x");
    const result = await sh(
      "[ -f file ] && echo f; [ -d . ] && echo d; test 3 -lt 10 && echo lt; [ abc != abd ] && echo ne; [ -z '' ] && echo z; [ 1 -eq x ]; echo $?",
      cwd,
    );
    expect(result.stdout).toBe("f\nd\nlt\nne\nz\n2\n");
  });

  it("implements cd, pwd, export, unset, readonly, declare and read", async () => {
    const cwd = scratch();
    mkdirSync(join(cwd, "dir"));
    const result = await sh(
      [
        "cd dir && pwd | sed 's|.*/||'",
        "export E=1; sh -c 'echo $E'",
        'v=1; unset v; echo "[${v-unset}]"',
        "readonly r=1; (r=2); echo $?",
        "declare -i n=2+3; declare -p n",
        "read a b <<< 'one two three'; echo \"$a|$b\"",
      ].join("\n"),
      cwd,
    );
    expect(result.stdout).toBe('dir\n1\n[unset]\n1\ndeclare -i n="5"\none|two three\n');
    expect(result.stderr).toBe("bash: line 4: r: readonly variable\n");
  });

  it("handles break and continue across levels and exit status", async () => {
    const result = await sh(
      "for i in 1 2; do for j in a b; do [ $j = b ] && continue 2; echo $i$j; done; done; for i in 1 2 3; do [ $i = 2 ] && break; echo $i; done; exit 7",
    );
    expect(result).toEqual({ stdout: "1a\n2a\n1\n", stderr: "", status: 7 });
  });
});
