// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell source, where ${NAME} is literal input.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { byteLength, decodeShellBytes, encodeShellText, sliceBytes } from "@agent-bridle/bash";
import { childProcessRunner, passThroughAccess } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { runBash } from "../../src/index.js";
import { PATH, scratch } from "./run.js";

/** The script's stdout bytes, as hex. */
async function ours(script: string, cwd: string): Promise<string> {
  const result = await runBash(script, {
    cwd,
    env: { PATH, LC_ALL: "C" },
    scriptName: "bash",
    runner: childProcessRunner,
    access: passThroughAccess,
  });
  return result.stdout.toString("hex");
}

function bash(script: string, cwd: string): string {
  const ran = spawnSync("/bin/bash", ["--norc", "--noprofile", "-c", script], {
    cwd,
    env: { PATH, LC_ALL: "C" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return ran.stdout.toString("hex");
}

describe("the byte model (surrogate-escaped bytes)", () => {
  it("round-trips every byte sequence, invalid UTF-8 included", () => {
    const samples = [
      Buffer.from("plain ascii"),
      Buffer.from("é, ü, 日本, 😀"),
      Buffer.from([0xe9, 0x41, 0xc3, 0xff, 0xfe, 0xc3, 0xa9, 0xed, 0xa0, 0x80, 0xf4, 0x90]),
      Buffer.from([0xef, 0xbb, 0xbf, 0x41]),
      Buffer.from([0xf0, 0x9f, 0x98]),
    ];
    for (const bytes of samples) expect(encodeShellText(decodeShellBytes(bytes))).toEqual(bytes);
    expect(decodeShellBytes(Buffer.from([0xc3, 0xa9]))).toBe("é");
    expect(decodeShellBytes(Buffer.from([0xe9]))).toBe("\udce9");
    expect(encodeShellText("é\udce9😀")).toEqual(
      Buffer.from([0xc3, 0xa9, 0xe9, 0xf0, 0x9f, 0x98, 0x80]),
    );
  });

  it("counts and cuts bytes, as bash does under LC_ALL=C", () => {
    expect(byteLength("aé")).toBe(3);
    expect(sliceBytes("aéb", 1, 2)).toBe("\udcc3");
    expect(encodeShellText(sliceBytes("aéb", 1, 3))).toEqual(Buffer.from([0xc3, 0xa9]));
  });
});

const CASES = [
  "echo é",
  "printf '%s\\0' é aé",
  "printf '\\xe9'",
  "echo -e '\\xe9\\0351'",
  'x=$(printf "\\xe9"); printf %s "$x"',
  "echo $'\\xc3\\xa9' $'\\351'",
  "x=$'\\xc3\\xa9'; [[ $x == é ]] && echo same",
  'printf -v v "\\xc3\\xa9"; [[ $v == é ]] && echo same',
  "cat <<E\né\nE\ncat <<< é",
  "printf 'é\\n' | { read x; printf %s \"$x\"; echo ${#x}; }",
  "printf 'a\\xe9b\\n' | { read x; printf %s \"$x\"; echo ${#x}; }",
  "mapfile -t a < <(printf 'é\\n\\xff\\n'); printf '%s' \"${a[@]}\"",
  "x=aéb; echo ${#x} ${x:1:1} ${x:1:2} ${x^^}",
  'printf "%5s|%.1s|%c|%q|%d\\n" é é é é "\'é"',
  "x=aébé; echo ${x#*é} ${x%é*} ${x/é/E} ${x//?/.}",
  "case é in ?) echo one;; ??) echo two;; esac",
  'echo é > f; cat f; read x < f; echo "$x"; printf \'\\xe9\\n\' > g; x=$(cat g); echo "$x"',
  "printf 'echo \\xe9 é\\n' > s; source ./s",
  "x=é; y=$'a\\xe9\\t'; declare -p x y; echo \"${x@Q} ${y@Q} ${x@U}\"; set | grep '^[xy]='",
  "x='\\xc3\\xa9'; echo ${x@E}; printf '%q\\n' 'aé b' $'a\\xe9' \"it's é\" $'\\e'",
  'x=$(printf "a\\0b\\0\\xe9"); echo ${#x}; printf %s "$x"',
  "a=$'\\xc3'; b=$'\\xa9'; [[ \"$a$b\" == é ]] && echo same",
];

describe.skipIf(!existsSync("/bin/bash"))("non-ASCII bytes match bash byte for byte", () => {
  it.each(CASES)("%s", async (script) => {
    const cwd = scratch();
    const expected = bash(script, scratch());
    expect(expected).not.toBe("");
    expect(await ours(script, cwd)).toBe(expected);
  });
});
