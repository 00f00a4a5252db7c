// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { describe, expect, it } from "vitest";
import { sh } from "./run.js";

describe("interpreter: later builtins and expansions", () => {
  it("runs EXIT and ERR traps and lists them with trap -p", async () => {
    const result = await sh(
      "trap 'echo bye $?' EXIT; trap 'echo err' ERR; trap -p EXIT; false; exit 3",
    );
    expect(result).toEqual({
      stdout: "trap -- 'echo bye $?' EXIT\nerr\nbye 3\n",
      stderr: "",
      status: 3,
    });
  });

  it("expands braces before everything else", async () => {
    const result = await sh("echo a{b,c}d {1..3} {c..a} {01..3..2} x{}y");
    expect(result.stdout).toBe("abd acd 1 2 3 c b a 01 03 x{}y\n");
  });

  it("prints declarations like bash and supports namerefs", async () => {
    const result = await sh(
      "declare -a a=(x 'y z'); declare -A m=([k]=v); s=$'1\\n2'; declare -p a m s; t=1; declare -n r=t; r=2; echo $t",
    );
    expect(result.stdout).toBe(
      'declare -a a=([0]="x" [1]="y z")\ndeclare -A m=([k]="v" )\ndeclare -- s=$\'1\\n2\'\n2\n',
    );
  });

  it("parses options with getopts", async () => {
    const result = await sh(
      'while getopts "ab:" o -a -b val rest; do echo "$o ${OPTARG-}"; done; echo $OPTIND',
    );
    expect(result.stdout).toBe("a \nb val\n4\n");
  });

  it("supports process substitution, mapfile and PIPESTATUS", async () => {
    const result = await sh(
      "mapfile -t lines < <(printf 'a\\nb\\n'); echo ${#lines[@]} ${lines[1]}; true | false | true; echo ${PIPESTATUS[@]}",
    );
    expect(result.stdout).toBe("2 b\n0 1 0\n");
  });

  it("abandons the rest of the line after an arithmetic error, like bash", async () => {
    const result = await sh("echo $((1/0)); echo same-line\necho next $?");
    expect(result.stdout).toBe("next 1\n");
    expect(result.stderr).toBe('bash: line 1: 1/0: division by 0 (error token is "0")\n');
  });

  it("traces simple commands with set -x", async () => {
    const result = await sh("set -x; x='a b'; echo \"$x\" c");
    expect(result.stderr).toBe("+ x='a b'\n+ echo 'a b' c\n");
  });
});
