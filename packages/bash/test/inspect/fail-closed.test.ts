// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { describe, expect, it } from "vitest";
import {
  inspectShell,
  MAX_INSPECTION_DEPTH,
  MAX_INSPECTION_SOURCE_BYTES,
  ShellInspectionError,
} from "../../src/index.js";
import { inspected, programs, refusal } from "./helpers.js";

describe("inspectShell fails closed (reference §7.2)", () => {
  it("throws a branded ShellInspectionError with one message", () => {
    let caught: unknown;
    try {
      inspectShell("echo $(uname");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ShellInspectionError);
    expect(ShellInspectionError.isInstance(caught)).toBe(true);
    expect(ShellInspectionError.isInstance(new Error("x"))).toBe(false);
    expect((caught as Error).message).toMatch(/^malformed syntax at line 1: /);
  });

  it("malformed syntax", () => {
    expect(refusal("echo $(uname")).toMatch(/^malformed syntax/);
    expect(refusal("echo 'open")).toMatch(/^malformed syntax/);
    expect(refusal("| wc")).toMatch(/^malformed syntax/);
  });

  it("limits: source size and substitution depth", () => {
    expect(inspected(`echo ${"a".repeat(MAX_INSPECTION_SOURCE_BYTES - 5)}`).commands).toHaveLength(
      1,
    );
    expect(refusal(`echo ${"a".repeat(MAX_INSPECTION_SOURCE_BYTES)}`)).toMatch(
      /longer than 32768 bytes/,
    );
    // multi-byte characters count as their UTF-8 bytes
    expect(refusal(`echo ${"é".repeat(MAX_INSPECTION_SOURCE_BYTES / 2)}`)).toMatch(/longer than/);
    const nest = (depth: number) => `${"echo $(".repeat(depth)}true${")".repeat(depth)}`;
    expect(inspected(nest(MAX_INSPECTION_DEPTH)).constructs).toHaveLength(1);
    expect(refusal(nest(MAX_INSPECTION_DEPTH + 1))).toMatch(/nested deeper than 32 levels/);
  });

  it("a command word that is not statically known", () => {
    for (const [source, reason] of [
      ["$PROGRAM --version", "a parameter expansion"],
      ["${TOOL} x", "a parameter expansion"],
      ["$(which ls) -l", "a command substitution"],
      ["`which ls`", "a command substitution"],
      ["$((1)) x", "an arithmetic expansion"],
      ["~/bin/tool", "tilde prefix"],
      ["$'ls' -l", "ANSI-C quoting"],
      ['$"ls" -l', "gettext quoting"],
      ["l? -l", "glob metacharacter"],
      ["/bin/l[s]", "glob metacharacter"],
      ["{ls,rm} x", "brace expansion"],
    ] as const) {
      const message = refusal(source);
      expect(message, source).toContain("is not statically known");
      expect(message, source).toContain(reason);
    }
    // quoted metacharacters are literal
    expect(programs("'l?' \"{a,b}\" \\~x")).toEqual(["l?"]);
  });

  it("dispatchers that can run a command absent from the inventory", () => {
    for (const source of [
      "eval 'rm -rf x'",
      "source ./env.sh",
      ". ./env.sh",
      "builtin eval ls",
      "command find .",
      "env MODE=test sh -c 'ls'",
      "/usr/bin/env python3 -c 'print(1)'",
      "xargs rm",
      "exec ls",
      "trap 'rm x' EXIT",
      "fc -s",
      "sudo ls",
      "doas ls",
      "nice ls",
      "nohup ls",
      "setsid ls",
      "timeout 5 ls",
      "stdbuf -o0 ls",
      "chroot / ls",
      "su -c ls",
      "runuser -u x ls",
      "busybox ls",
      "watch ls",
      "parallel ls ::: a",
      "'time' ls",
      "ENV.EXE ls",
      "'C:\\Windows\\XARGS.exe' rm",
    ]) {
      expect(refusal(source), source).toContain(
        "can run a command that is absent from the inventory",
      );
    }
  });

  it("shells and interpreters, with versioned spellings and full paths", () => {
    for (const source of [
      "sh -c ls",
      "bash -c ls",
      "/bin/dash x.sh",
      "zsh",
      "pwsh -c x",
      "POWERSHELL.EXE -c x",
      "cmd /c dir",
      "python3 -c 'print(1)'",
      "/opt/tools/python3.12 -c 'print(1)'",
      "pypy3.10 x.py",
      "perl5.36 -e 1",
      "node-20 x.js",
      "nodejs x.js",
      "ruby -e 1",
      "awk '{print}'",
      "gawk 1",
      "Rscript x.R",
      "osascript -e 1",
      "deno run x.ts",
      "bun x.ts",
    ]) {
      expect(refusal(source), source).toContain("is a shell or interpreter");
    }
    // a name merely starting with a family name is an ordinary program
    expect(programs("python-config --libs; perlbrew list; nodemon x; shellcheck y")).toEqual([
      "python-config",
      "perlbrew",
      "nodemon",
      "shellcheck",
    ]);
  });

  it("printf -v in any spelling, and a dynamic first argument", () => {
    for (const source of [
      "printf -v result '%s' x",
      "printf -vresult '%s' x",
      "printf '-v' result x",
      'printf "-v" result x',
      'printf "$option" x',
      "printf $(echo -v) r x",
    ]) {
      expect(refusal(source), source).toMatch(/^printf /);
    }
    expect(programs("printf -- -v literal; printf '%s' -v literal; printf")).toEqual([
      "printf",
      "printf",
      "printf",
    ]);
  });

  it("arithmetic that is not state-free (case 94)", () => {
    for (const source of [
      "echo $((counter))",
      "echo $[counter]",
      "echo $((array[index]))",
      "echo $((counter += 1))",
      "echo $((++counter))",
      "echo $((x = 1))",
      "echo $((1 -= 2))",
      "echo $(($n + 1))",
      "echo $((${n} + 1))",
    ]) {
      expect(refusal(source), source).toMatch(/^arithmetic depends on runtime shell state: /);
    }
    for (const source of [
      "echo $(($(date +%s) + 1))",
      "echo $((`date` + 1))",
      "echo $(($((1)) + 1))",
    ]) {
      expect(refusal(source), source).toMatch(/^arithmetic is not statically evaluable: /);
    }
    expect(refusal("echo $((1 +))")).toMatch(/^arithmetic is not statically evaluable/);
  });

  it("parameter expansions that depend on run-time state (case 95)", () => {
    expect(refusal("echo ${array[index]}")).toBe(
      "array index depends on runtime shell state: `${array[index]}`",
    );
    expect(refusal("echo ${value:offset:2}")).toBe(
      "substring offset depends on runtime shell state: `${value:offset:2}`",
    );
    expect(refusal("echo ${value:1:length}")).toBe(
      "substring length depends on runtime shell state: `${value:1:length}`",
    );
    expect(refusal("echo ${payload@P}")).toBe(
      "the prompt transform `@P` can run command substitutions: `${payload@P}`",
    );
    expect(refusal("echo ${!ref}")).toBe(
      "indirect expansion names its variable at run time: `${!ref}`",
    );
    expect(refusal("echo ${x:-$(date)}")).toMatch(
      /^parameter expansion with nested command syntax/,
    );
    expect(refusal('echo "${x/a/$((1))}"')).toMatch(
      /^parameter expansion with nested command syntax/,
    );
    expect(refusal("echo ${x:-${!y}}")).toMatch(/^indirect expansion/);
    expect(refusal("a[i]=1")).toMatch(/^array index depends on runtime shell state/);
    // plain and operator expansions of ordinary variables are fine
    expect(programs('echo "$HOME" ${x:-default} ${x#*/} ${x^^} ${x@Q} ${#x}')).toEqual(["echo"]);
  });

  it("compound commands other than for, redirected for loops, functions, [[ ]]", () => {
    for (const [source, what] of [
      ["if true; then ls; fi", "`if`"],
      ["while true; do ls; done", "`while`/`until`"],
      ["until false; do ls; done", "`while`/`until`"],
      ["case x in x) ls;; esac", "`case`"],
      ["{ ls; }", "`{ }`"],
      ["(ls)", "`( )`"],
      ["[[ -f x ]]", "`[[ ]]`"],
      ["(( 1 + 1 ))", "`(( ))`"],
      ["for ((i = 0; i < 3; i++)); do ls; done", "arithmetic `for ((…))`"],
      ["select x in a; do ls; done", "`select`"],
    ] as const) {
      expect(refusal(source), source).toMatch(
        /^the compound command .* is not supported by inspection: /,
      );
      expect(refusal(source), source).toContain(what);
    }
    expect(refusal("for x in a; do ls; done >out")).toContain("a redirection on a `for` loop");
    expect(refusal("f() { ls; }")).toContain("a function definition");
    expect(refusal("function f { ls; }")).toContain("a function definition");
    // a compound inside a for body or a substitution fails the whole inspection
    expect(refusal("for x in a; do if true; then ls; fi; done")).toContain("`if`");
    expect(refusal("echo $(if true; then ls; fi)")).toContain("`if`");
  });

  it("process substitution and here-documents", () => {
    expect(refusal("diff <(ls a) <(ls b)")).toMatch(/^process substitution/);
    expect(refusal("cat <<EOF\nhi\nEOF\n")).toMatch(/^here-documents/);
    expect(refusal("cat <<-'EOF'\n\thi\n\tEOF\n")).toMatch(/^here-documents/);
  });

  it("find with a non-static argument or a malformed action (case 96)", () => {
    expect(refusal('find . -exec "$PROGRAM" {} +')).toMatch(/^find with a non-static argument/);
    expect(refusal("find $dir -name x")).toMatch(/^find with a non-static argument/);
    expect(refusal("find . -name *.log")).toMatch(/^find with a non-static argument/);
    expect(refusal("find . -exec")).toBe("find -exec without a program");
    expect(refusal("find . -ok \\;")).toBe("find -ok without a program");
    expect(refusal("find . -execdir '' {} +")).toBe("find -execdir with an empty program");
    expect(refusal("find . -exec wc -l {}")).toMatch(/^find -exec without its terminator/);
    expect(refusal("find . -exec wc + x")).toMatch(/^find -exec without its terminator/);
    expect(refusal("find . -exec sh -c 'rm x' \\;")).toContain(
      "can run commands absent from the inventory",
    );
  });

  it("beyond the reference: builtins whose literal arguments bash evaluates as code", () => {
    expect(refusal("let 'x[$(touch m)]=1'")).toMatch(/^`let` evaluates its arguments/);
    expect(refusal("declare -i n; n='a[$(touch m)]'")).toMatch(/^`declare -i` makes later/);
    expect(refusal("local -ai counts")).toMatch(/^`local -i`/);
    expect(refusal('typeset "$flags" x')).toMatch(/^`typeset` with a dynamic option/);
    expect(refusal("hash -p /bin/rm ls; ls -rf x")).toMatch(/^`hash -p` makes a command name/);
    expect(refusal("alias ls=rm")).toMatch(/^`alias` makes a command name/);
    expect(refusal("mapfile -C 'touch m #' -c 1 lines")).toMatch(/^`mapfile -C` evaluates/);
    expect(refusal("readarray -tC cb lines")).toMatch(/^`readarray -C` evaluates/);
    // the same builtins without those options are inventoried
    expect(
      programs(
        'declare -a list=(1 2); local x="$1"; export +i PATH; hash -r; mapfile -t -d C lines',
      ),
    ).toEqual(["declare", "local", "export", "hash", "mapfile"]);
    expect(programs("constructor -x; toString -p; __proto__")).toEqual([
      "constructor",
      "toString",
      "__proto__",
    ]);
  });
});
