import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runUtility } from "./helpers/run-utility.js";
import { createTestOpener } from "./helpers/test-opener.js";

// Issue 15, point 6 and `ls -la`: a listing the grant allows shows every name; an entry
// the grant does not let ls look at is listed without being opened, and the `..` of a
// directory at the edge of the grant is the private view's stand-in.

const scratch = mkdtempSync(join(tmpdir(), "coreutils-withheld-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function project() {
  const root = mkdtempSync(join(scratch, "project-"));
  mkdirSync(join(root, "blocked"));
  writeFileSync(join(root, "blocked", "CANARY"), "secret");
  writeFileSync(join(root, "file"), "data\n");
  const accessed: string[] = [];
  const opener = createTestOpener({
    root,
    denied: [join(root, "blocked"), join(root, "..")],
    alsoAllowed: ["/etc/passwd", "/etc/group"],
    onAccess: (path) => void accessed.push(path),
  });
  return { root, opener, accessed };
}

describe("ls in a directory at the edge of the grant", () => {
  it("lists a blocked entry by name, without opening it, recording nothing", async () => {
    const { root, opener, accessed } = project();
    const outcome = await runUtility("ls", [], { cwd: root, opener });
    expect(outcome.stdout.toString()).toBe("blocked\nfile\n");
    expect(outcome.stderr.toString()).toBe("");
    expect(outcome.status).toBe(0);
    expect(outcome.denials).toEqual([]);
    expect(accessed.filter((path) => path.includes("blocked"))).toEqual([]);
  });

  it("-lR shows GNU's ? fields for it and does not descend", async () => {
    const { root, opener, accessed } = project();
    const outcome = await runUtility("ls", ["-lR"], { cwd: root, opener });
    const text = outcome.stdout.toString();
    expect(text).toMatch(/^\?{10} \? \? +\? +\? {12}\? blocked$/m);
    expect(text).not.toContain("CANARY");
    expect(outcome.stderr.toString()).toBe("");
    expect(outcome.status).toBe(0);
    expect(accessed.some((path) => path.includes("CANARY"))).toBe(false);
  });

  it("-la shows a stand-in for the parent outside the grant, owner names, no error", async () => {
    const { root, opener } = project();
    const outcome = await runUtility("ls", ["-la"], { cwd: root, opener });
    const lines = outcome.stdout.toString().split("\n");
    expect(lines[0]).toMatch(/^total \d+$/);
    const owner = `${userInfo().username} +\\S+`;
    expect(lines[1]).toMatch(new RegExp(`^drwx------ 3 ${owner} +\\d+ .* \\.$`));
    expect(lines[2]).toMatch(new RegExp(`^dr-xr-xr-x 2 ${owner} +0 .* \\.\\.$`));
    expect(outcome.stderr.toString()).toBe("");
    expect(outcome.status).toBe(0);
    expect(outcome.denials).toEqual([]);
  });

  it("positive control: with the parent readable, `..` is the real parent", async () => {
    const { root } = project();
    const opener = createTestOpener({ root: scratch, alsoAllowed: ["/etc/passwd", "/etc/group"] });
    const outcome = await runUtility("ls", ["-la"], { cwd: root, opener });
    expect(outcome.stdout.toString().split("\n")[2]).toMatch(/^drwx------ \d+ \S+ +\S+ .* \.\.$/);
  });

  it("an operand the grant refuses is still GNU's permission error, recorded once", async () => {
    const { root, opener } = project();
    const outcome = await runUtility("ls", ["blocked"], { cwd: root, opener });
    expect(outcome.stderr.toString()).toBe("ls: cannot access 'blocked': Permission denied\n");
    expect(outcome.status).toBe(2);
    expect(outcome.denials).toHaveLength(1);
  });
});
