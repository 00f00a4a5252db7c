import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { only } from "@agent-bridle/core";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { brush } from "./helpers.js";

const tempDir = useTempDirs("brush-ref-carried-");

function fixture(): string {
  const dir = tempDir();
  writeFileSync(join(dir, "MARKER.txt"), "carried marker\n");
  writeFileSync(join(dir, "a"), "1\n2\n");
  writeFileSync(join(dir, "b"), "1\n2\n3\n");
  writeFileSync(join(dir, "short"), "1\n2\n");
  writeFileSync(join(dir, "long"), "1\n2\n3\n4\n5\n");
  return dir;
}

const SCRIPT = [
  "ls .",
  "cat MARKER.txt",
  "wc -l a b",
  "wc -l short long | sort -nr | head -1",
  "echo six",
].join("; ");

const EXPECTED = [
  "MARKER.txt\na\nb\nlong\nshort\n",
  "carried marker\n",
  // GNU's column width (from the files' total size), as `LC_ALL=C wc -l a b` prints.
  " 2 a\n 3 b\n 5 total\n",
  " 7 total\n",
  "six\n",
].join("");

describe("the six carried utilities need no host PATH (reference case 91, its in-engine half)", () => {
  for (const [name, grant] of [
    ["top()", {}],
    ["exec only[ls, cat, wc, sort, head]", { exec: only(["ls", "cat", "wc", "sort", "head"]) }],
  ] as const) {
    it(`91: with the host PATH pointing nowhere and the shell PATH empty, ls, cat, wc, sort, head and echo work (${name})`, async () => {
      const dir = fixture();
      const { run } = brush();
      const hostPath = process.env.PATH;
      process.env.PATH = join(dir, "nonexistent-bin");
      try {
        const envelope = await run({ cmd: SCRIPT, cwd: dir, env: { PATH: "" } }, grant);
        expect(envelope.stderr).toBe("");
        expect(envelope).toMatchObject({ exit_code: 0, stdout: EXPECTED });
        expect(envelope.denied).toBeUndefined();
      } finally {
        process.env.PATH = hostPath;
      }
    });
  }

  it("91: with the shell PATH empty an external program is not found (the utilities above were not looked up)", async () => {
    const { run } = brush();
    const envelope = await run({
      cmd: "tr a b </dev/null; echo $?",
      cwd: tempDir(),
      env: { PATH: "" },
    });
    expect(envelope.stdout).toBe("127\n");
  });
});
