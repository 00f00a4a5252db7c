// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratch, sh } from "./run.js";

describe("interpreter: pipelines stream", () => {
  it("ends an endless producer when its reader is done (SIGPIPE: 141)", async () => {
    const result = await sh(
      [
        "yes | head -1; echo ${PIPESTATUS[*]}",
        "yes | cat | head -2; echo ${PIPESTATUS[*]}",
        "while :; do echo loop; done | head -1; echo ${PIPESTATUS[*]}",
        "seq 1 1000000 | head -1; echo ${PIPESTATUS[*]}",
      ].join("\n"),
    );
    expect(result).toEqual({
      stdout: "y\n141 0\ny\ny\n141 141 0\nloop\n141 0\n1\n141 0\n",
      stderr: "",
      status: 0,
    });
  });

  it("feeds each stage as the previous one writes, to builtins, utilities and programs", async () => {
    const result = await sh(
      [
        "printf 'b\\na\\n' | while read x; do echo \"<$x>\"; done | sort",
        "seq 3 | mapfile -t lines; echo ${#lines[@]}",
        "seq 100000 | cat | wc -l",
        "echo hi | { read v; echo got $v; } | tr a-z A-Z",
        "{ echo out; echo err >&2; } |& sort",
      ].join("\n"),
    );
    expect(result.stdout).toBe("<a>\n<b>\n0\n100000\nGOT HI\nerr\nout\n");
    expect(result.stderr).toBe("");
  });
});

describe("interpreter: background jobs", () => {
  it("runs a job alongside the script; wait returns its status", async () => {
    const result = await sh(
      "(sleep 0.2; echo late) & echo first; wait; echo $?; f() { return 3; }; f & wait $!; echo $?",
    );
    expect(result.stdout).toBe("first\nlate\n0\n3\n");
  });

  it("stops a job still running when the script ends: nothing it would do happens", async () => {
    const root = scratch();
    const result = await sh("(sleep 5; touch marker) & echo done", root);
    expect(result).toEqual({ stdout: "done\n", stderr: "", status: 0 });
    // The run returns only after the stopped job has finished: `touch` can no longer run.
    expect(existsSync(join(root, "marker"))).toBe(false);
  });
});
