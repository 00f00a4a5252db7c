// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
/**
 * Issue 19 point 5: behaviours the public corpus found different from bash, each run
 * through the interpreter and through real bash, whose output is the expectation.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bash, scratch, sh } from "./run.js";

/** The interpreter's stdout and status equal bash's for `script`. */
async function sameAsBash(script: string): Promise<string> {
  const cwd = scratch();
  const expected = bash(script, cwd);
  const actual = await sh(script, cwd);
  expect({ stdout: actual.stdout, status: actual.status }).toEqual(expected);
  return actual.stdout;
}

describe.skipIf(!existsSync("/bin/bash"))("bash fidelity (issue 19 point 5)", () => {
  it("computes the well-known dynamic variables on every read", async () => {
    const out = await sameAsBash(
      [
        'echo "sub: $BASH_SUBSHELL $(echo $BASH_SUBSHELL) $( (echo $BASH_SUBSHELL) )"',
        "[[ $EPOCHSECONDS =~ ^[0-9]+$ ]] && echo epoch",
        "[[ $EPOCHREALTIME =~ ^[0-9]+\\.[0-9]{6}$ ]] && echo realtime",
        "a=$SRANDOM b=$SRANDOM; [[ $a != $b && $a =~ ^[0-9]+$ ]] && echo srandom",
        "declare -n r=RANDOM; x=$r y=$r; [[ $x != $y ]] && echo random-through-nameref",
        'echo "opts: $SHELLOPTS"; set -u; echo "opts: $SHELLOPTS"; set +u',
        "SHELLOPTS=x; echo $?",
        "echo ${#COMP_WORDBREAKS} $SHLVL",
        "unset RANDOM; RANDOM=5; echo $RANDOM",
        "echo $((LINENO + 0)) $LINENO",
      ].join("\n"),
    );
    expect(out).toContain("sub: 0 1 2\nepoch\nrealtime\nsrandom\nrandom-through-nameref\n");
  });

  it("lists the variables bash sets up, with their attributes", async () => {
    await sameAsBash(
      "declare -p | grep '^declare ' | sed -e 's/=.*//' | grep -v -e ' PWD$' -e ' OLDPWD$' -e ' LC_ALL$'",
    );
  });

  it("exports SHLVL one higher than its parent's and gives a program `_` as its path", async () => {
    const out = await sameAsBash(
      "bash -c 'echo $SHLVL'; env | grep '^_='; env | grep -c '^PS1=' || true",
    );
    expect(out).toBe("2\n_=/usr/bin/env\n0\n");
  });

  it("empties `$_` after a statement of assignments and drops its export", async () => {
    await sameAsBash(
      'echo seed; x=1; echo "[$_]"; z=$(echo a); echo "[$_]"; export _=v; echo a b; declare -p _ | grep -c x || true',
    );
  });

  it("keeps BASH_ARGV and BASH_ARGC for sourced files, and for functions under extdebug", async () => {
    const cwd = scratch();
    const script = [
      "printf 'declare -p BASH_ARGV BASH_ARGC\\n' > argv.sh",
      ". ./argv.sh",
      "f() { declare -p BASH_ARGV BASH_ARGC; }; f a b",
      "shopt -s extdebug",
      'inner() { echo "${BASH_ARGC[*]} | ${BASH_ARGV[*]}"; }',
      "outer() { inner x y; }; outer a b c",
    ].join("\n");
    const expected = bash(script, cwd);
    const actual = await sh(script, cwd);
    expect(actual.stdout).toBe(expected.stdout);
    expect(actual.stdout).toContain("2 3 0 | y x c b a\n");
    expect(actual.stdout).toContain('BASH_ARGV=([0]="./argv.sh")');
  });

  it("leaves FUNCNAME empty in a file sourced outside any function", async () => {
    await sameAsBash(
      'printf \'echo "[${FUNCNAME[*]}]"\\nf() { echo "[${FUNCNAME[*]}]"; }\\n\' > s.sh; . ./s.sh; f',
    );
  });

  it("turns builtins off with enable -n and on again", async () => {
    await sameAsBash(
      [
        "enable -n cd",
        "builtin cd . 2>/dev/null; echo $?",
        "enable -n | grep cd",
        "enable cd; builtin cd .; echo $?",
        "enable -n declare; declare x=1 2>/dev/null; echo $?; enable declare",
        "declare -p x 2>/dev/null || echo unset",
        "enable nosuch 2>/dev/null; echo $?",
      ].join("\n"),
    );
  });

  it("refuses enable -f and -d (loading a shared object) and loads nothing", async () => {
    const result = await sh(
      "enable -f ./x.so evil; echo status=$?; enable -d evil; echo $?; type -t evil",
    );
    expect(result.stdout).toBe("status=1\n1\n");
    expect(result.stderr).toContain("enable: dynamic loading not available");
    // positive control: enable still turns a builtin off and on
    const control = await sh("enable -n echo; type -t echo; enable echo; type -t echo");
    expect(control.stdout).toBe("file\nbuiltin\n");
  });

  it("declares as bash does: element operands, conversions, array attributes kept", async () => {
    await sameAsBash(
      [
        "index=3 key='a b' sub='$(echo SECOND)'",
        "declare 'arr[$index+1]=v' 'arr[$(echo 2)+index]=w'; declare -p arr",
        "declare -A m n o; declare 'm[$key]=$value' n[$sub]=x 'o[$sub]=y'; declare -p m n o",
        "declare -A c=([$sub]=z); declare -p c",
        "declare -a e=([0]=one); declare 'e[0]+=two'; declare -p e",
        "declare s=value; declare -A s; declare -p s",
        "declare -au u='(ab Cd)'; declare -au 'w=(ab Cd)'; declare -p w",
        "declare -a g=(1 2); declare +a g; echo $?; declare +A g; echo $?; declare -p g",
        "declare 'bare[5]'; declare -p bare; declare 'b[]'; echo $?",
        "declare -r zzro=1; declare -t zztr=2; declare -prt | grep zz",
        "declare -na na=target; declare -p na",
        "export -f nosuchfn; echo $?; export 'ea[0]=1'; echo $?",
      ].join("\n"),
    );
  });

  it("expands a declaration's assignment words and plain words in one pass, left to right", async () => {
    await sameAsBash(
      [
        "i=0; declare b=$((i+=1)) c$((i+=1)) d=$((i+=1)); declare -p b c2 d",
        'x=5; f() { local -a arr=($x y) s="$x"; declare -p arr s; }; f',
        "export e[1]=2; echo $?; readonly r1=1 'r2=$x' r3; declare -p r1 r2 r3",
      ].join("\n"),
    );
  });

  it("unsets as bash does: -n, arithmetic and negative subscripts, through namerefs", async () => {
    await sameAsBash(
      [
        "a=(a b c d e f); i=4; unset 'a[i]' 'a[6/2]' 'a[-1]'; declare -p a",
        "t=v; declare -n r=t; unset -n r; declare -p r 2>/dev/null || echo gone; echo $t",
        "arr=(a b c d); declare -n er='arr[2]'; unset er; declare -p arr",
        "er=(x y) 2>/dev/null; echo not reached",
        "echo $?; declare -p arr",
      ].join("\n"),
    );
  });

  it("expands ${!ref} of a nameref to the name it ends at, and exports its own value", async () => {
    await sameAsBash(
      [
        "u=deep; declare -n m=u; declare -n top=m; echo ${!top} ${!m} $top",
        "arr=(x y z); declare -n e='arr[1]'; echo ${!e}",
        "plain=u; echo ${!plain}",
        "declare -nx xr=u; env | grep '^xr='",
        "declare -x e; declare -p arr",
        "declare -n ro='arr[0]'; readonly ro 2>/dev/null; echo $?; export e; declare -p arr",
      ].join("\n"),
    );
  });

  it("keeps the array under mapfile -O, unsets OPTARG at the end of getopts, exits with the low byte", async () => {
    await sameAsBash(
      [
        "s=hello; mapfile -t -O 2 s < <(printf 'a\\nb\\n'); declare -p s",
        "a=(x y z); mapfile -t -O 0 a < /dev/null; declare -p a",
        "b=(x y z); mapfile -t b < /dev/null; declare -p b",
        'while getopts ab: o -a -b v rest; do :; done; echo "${OPTARG-unset} $OPTIND"',
        "(exit 9223372036854775807); echo $?; (exit +3); echo $?",
      ].join("\n"),
    );
  });
});
