import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UtilityName } from "../src/index.js";
import { createFixtureTree, type FixtureTree } from "./helpers/fixture-tree.js";
import { runUtility } from "./helpers/run-utility.js";
import { createTestOpener } from "./helpers/test-opener.js";

// Root cannot make GNU print permission errors, so a gate that refuses stands in:
// each refused operand reads as GNU's EACCES text, is recorded once, and is never read.
let tree: FixtureTree;
beforeAll(() => {
  tree = createFixtureTree();
});
afterAll(() => tree.remove());

function run(name: UtilityName, argv: string[], denied: string[], accessed: string[] = []) {
  const opener = createTestOpener({
    root: tree.root,
    denied: denied.map((path) => join(tree.root, path)),
    alsoAllowed: ["/etc/passwd", "/etc/group"],
    onAccess: (path) => void accessed.push(path),
  });
  return runUtility(name, argv, { cwd: tree.root, opener });
}

describe("a denied operand reads as GNU's permission error and is recorded", () => {
  it.each([
    {
      name: "cat" as const,
      argv: ["lines", "secret", "crlf"],
      stderr: "cat: secret: Permission denied\n",
      status: 1,
    },
    {
      name: "head" as const,
      argv: ["-n1", "secret"],
      stderr: "head: cannot open 'secret' for reading: Permission denied\n",
      status: 1,
    },
    {
      name: "wc" as const,
      argv: ["-l", "secret"],
      stderr: "wc: secret: Permission denied\n",
      status: 1,
    },
    {
      name: "sort" as const,
      argv: ["lines", "secret"],
      stderr: "sort: cannot read: secret: Permission denied\n",
      status: 2,
    },
    {
      name: "ls" as const,
      argv: ["secret"],
      stderr: "ls: cannot access 'secret': Permission denied\n",
      status: 2,
    },
  ])("$name $argv", async ({ name, argv, stderr, status }) => {
    const accessed: string[] = [];
    const outcome = await run(name, argv, ["secret"], accessed);
    expect(outcome.stderr.toString()).toBe(stderr);
    expect(outcome.status).toBe(status);
    expect(outcome.denials).toHaveLength(1);
    expect(outcome.denials[0]).toMatchObject({
      kind: "open",
      code: "FS_OUTSIDE_ALLOWED",
      target: join(tree.root, "secret"),
    });
    expect(accessed).not.toContain(join(tree.root, "secret"));
  });

  it("cat prints the allowed operands around the denied one", async () => {
    const outcome = await run("cat", ["no-newline", "secret", "no-newline"], ["secret"]);
    expect(outcome.stdout.toString()).toBe("alpha betaalpha beta");
  });

  it("an operand outside the gate's root is refused, not read", async () => {
    const outcome = await run("cat", ["/etc/hostname"], []);
    expect(outcome.stderr.toString()).toBe("cat: /etc/hostname: Permission denied\n");
    expect(outcome.stdout.length).toBe(0);
  });

  it("ls -R lists a refused subdirectory by name and does not descend into it (issue 15)", async () => {
    const accessed: string[] = [];
    const outcome = await run("ls", ["-R", "dir"], ["dir/sub"], accessed);
    expect(outcome.stdout.toString()).toMatch(/^dir:\n(.*\n)*sub\n/);
    expect(outcome.stdout.toString()).not.toContain("dir/sub:");
    expect(outcome.stderr.toString()).toBe("");
    expect(outcome.status).toBe(0);
    expect(outcome.denials).toEqual([]);
    expect(accessed.filter((path) => path.startsWith(join(tree.root, "dir/sub")))).toEqual([]);
  });

  it("ls -l without the user database shows numeric ids and records the refusal", async () => {
    const opener = createTestOpener({ root: tree.root });
    const outcome = await runUtility("ls", ["-l", "lines"], { cwd: tree.root, opener });
    expect(outcome.stdout.toString()).toMatch(/^-rw-r--r-- 1 0 0 63 /);
    expect(outcome.denials.map((denial) => denial.target)).toEqual(["/etc/passwd", "/etc/group"]);
  });

  it("sort -o to a refused path fails with GNU's open error and writes nothing", async () => {
    const outcome = await run("sort", ["-o", "out", "lines"], ["out"]);
    expect(outcome.stderr.toString()).toBe("sort: open failed: out: Permission denied\n");
    expect(outcome.status).toBe(2);
    expect(readdirSync(tree.root)).not.toContain("out");
  });

  it("sort -o writes through the gate", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "coreutils-sort-o-"));
    const opener = createTestOpener({ root: scratch });
    const stdin = Buffer.from("b\na\n");
    const outcome = await runUtility("sort", ["-o", "sorted"], { cwd: scratch, opener, stdin });
    expect(outcome.status).toBe(0);
    expect(readdirSync(scratch)).toEqual(["sorted"]);
  });
});
