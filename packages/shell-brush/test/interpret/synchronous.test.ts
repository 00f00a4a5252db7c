import { childProcessRunner, passThroughAccess } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { runBash } from "../../src/index.js";
import { sh } from "./run.js";

// Loops of `(( ))` and plain assignments run on the interpreter's synchronous path.
// Expectations are bash 5.2's (`bash --norc --noprofile -c`, LC_ALL=C).
describe("arithmetic loops and assignments (the synchronous path)", () => {
  it("count, branch and assign as bash does", async () => {
    expect(await sh("i=0; while (( i < 1000 )); do (( i++ )); done; echo $i $?")).toEqual({
      stdout: "1000 0\n",
      stderr: "",
      status: 0,
    });
    const branches = await sh(
      "for ((i=0, s=0; i<50; i++)); do if (( i % 3 == 0 )); then (( s += i )); " +
        'elif (( i % 3 == 1 )); then s=$((s - 1)); else x="y"z\'w\'; fi; done; echo "$s $x $i"',
    );
    expect(branches.stdout).toBe("391 yzw 50\n");
    const more = await sh(
      [
        "i=0; while (( i < 5 )); do (( i++ )); (( i == 3 )) && break; done; echo $i",
        "! (( 0 )) && echo neg; (( 0 )) || echo or $?",
        "declare -i n; n=5; while (( n < 20 )); do n+=3; done; echo $n",
        'f() { local i=0; while (( i < 4 )); do (( i++ )); done; echo "f $i"; }; f; echo "$i"',
        "declare -n ref=target; i=0; while ((i<2)); do ((i++)); ref=$((i*10)); done; echo $target",
        "a=1 b=$((a+1)) c=$((b*2)); echo $a $b $c",
        "HOME=/h; x=~; y=a:~; echo $x $y",
      ].join("\n"),
    );
    expect(more).toEqual({
      stdout: "3\nneg\nor 1\n20\nf 4\n3\n20\n1 2 4\n/h a:/h\n",
      stderr: "",
      status: 0,
    });
  });

  it("reports arithmetic errors on the line they happen, and errexit ends the script", async () => {
    expect(
      await sh('i=0\nwhile (( i < 3 )); do\n  (( i++ ))\n  (( 1 / (i - 2) ))\ndone\necho "$i $?"'),
    ).toEqual({
      stdout: "3 0\n",
      stderr: 'bash: line 4: ((: 1 / (i - 2) : division by 0 (error token is "(i - 2) ")\n',
      status: 0,
    });
    expect(
      await sh(
        'i=0\nuntil (( i >= 3 )); do\n  i=$((i + 1))\n  x=$((10 / (i - 2)))\ndone\necho "after $i"\necho next',
      ),
    ).toEqual({
      stdout: "after 2\nnext\n",
      stderr: 'bash: line 4: 10 / (i - 2): division by 0 (error token is "(i - 2)")\n',
      status: 0,
    });
    expect(await sh("set -e; i=0; while ((i<3)); do ((++i)); done; ((i-3)); echo no")).toEqual({
      stdout: "",
      stderr: "",
      status: 1,
    });
    expect(await sh("set -e; i=0; while ((i<3)); do ((i++)); done; echo no")).toEqual({
      stdout: "",
      stderr: "",
      status: 1,
    });
  });

  it("an endless loop still ends at the deadline (status 124)", async () => {
    const result = await runBash("while (( 1 )); do (( i++ )); done; echo never", {
      cwd: "/",
      runner: childProcessRunner,
      access: passThroughAccess,
      deadline: Date.now() + 200,
    });
    expect(result.exitCode).toBe(124);
    expect(result.stdout.toString()).toBe("");
  });
});
