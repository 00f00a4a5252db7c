import { childProcessRunner, passThroughAccess } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { runBash } from "../../src/index.js";
import { sh } from "./run.js";

async function withStdin(source: string, stdin: string) {
  const result = await runBash(source, {
    cwd: "/",
    env: {},
    scriptName: "bash",
    runner: childProcessRunner,
    access: passThroughAccess,
    stdin: Buffer.from(stdin),
  });
  return { out: result.stdout.toString(), err: result.stderr.toString(), status: result.exitCode };
}

// Expectations are bash 5.2's (`bash --norc --noprofile -c`, LC_ALL=C).
describe("select, RETURN traps and lastpipe", () => {
  it("select shows the menu and PS3 on stderr, sets the word and REPLY, and breaks", async () => {
    expect(
      await withStdin("PS3='pick: '; select x in a b; do echo got $x $REPLY; break; done", "2\n"),
    ).toEqual({ out: "got b 2\n", err: "1) a\n2) b\npick: ", status: 0 });
  });

  it("select redisplays the menu on an empty line, leaves the word empty on a bad answer, and ends at EOF with 1", async () => {
    expect(await withStdin('select x in a b; do echo got "$x" $REPLY; done', "\n9\n")).toEqual({
      out: "got  9\n",
      err: "1) a\n2) b\n#? 1) a\n2) b\n#? #? \n",
      status: 1,
    });
  });

  it("a RETURN trap set in a function runs when it returns, and is not inherited untraced", async () => {
    expect(
      (
        await sh(
          'f() { trap "echo ret" RETURN; echo in; }; g() { echo g; }; f; g; echo end; trap "echo top" RETURN; g',
        )
      ).stdout,
    ).toBe("in\nret\ng\nend\ng\n");
  });

  it("lastpipe runs the last stage in the shell: echo hi | read v sets v", async () => {
    expect(
      (await sh("shopt -s lastpipe; echo hi | read v; echo $v; echo a b | read x y; echo $y"))
        .stdout,
    ).toBe("hi\nb\n");
    expect((await sh('echo hi | read v; echo "[$v]"')).stdout).toBe("[]\n");
  });
});
