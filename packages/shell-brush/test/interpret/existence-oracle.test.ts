import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { only } from "@agent-bridle/core";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { runJudged } from "./judged-gate.js";

// kernel-boundary.md §1 item 7 (issue 14, point 4): the interpreter's own gate answers a
// path outside the grant the same way whether it exists or not. Each script runs once
// per kind of thing at the same outside name (and once through a link in the grant to
// it); stdout, stderr, status and the recorded denials must be alike once the name is
// replaced by NAME.

const tempDir = useTempDirs("brush-existence-");

const VARIANTS = ["present", "folder", "script", "dangling", "loop", "missing"] as const;

function fixture() {
  const base = tempDir();
  const grant = join(base, "grant");
  const outside = join(base, "outside");
  mkdirSync(grant);
  mkdirSync(join(outside, "folder"), { recursive: true });
  writeFileSync(join(outside, "present"), "CANARY-OUT\n");
  writeFileSync(join(outside, "folder", "inner"), "CANARY-OUT\n");
  writeFileSync(join(outside, "script"), "echo CANARY-OUT\n", { mode: 0o755 });
  symlinkSync(join(base, "nowhere", "at-all"), join(outside, "dangling"));
  symlinkSync(join(outside, "loop-back"), join(outside, "loop"));
  symlinkSync(join(outside, "loop"), join(outside, "loop-back"));
  for (const name of VARIANTS) symlinkSync(join(outside, name), join(grant, `to-${name}`));
  writeFileSync(join(grant, "inside.txt"), "inside\n");
  return { base, grant, outside };
}

/** `T` stands for the target; each is run as `outside/NAME` and as `grant/to-NAME`. */
const SCRIPTS = [
  "cat T; echo $?",
  "cat < T; echo $?",
  "read -r line < T; echo $? [$line]",
  "mapfile -t lines < T; echo $?",
  "exec 3< T; echo $?",
  "test -e T; echo $?",
  "test -L T; echo $?",
  "[ -f T ]; echo $?",
  "[ -d T ]; echo $?",
  "[[ -e T ]]; echo $?",
  "[[ -x T ]]; echo $?",
  "cd T; echo $? $PWD",
  "pushd T; echo $?",
  "echo T/*",
  "echo T*",
  "echo T/inner",
  "source T; echo $?",
  ". T; echo $?",
  "T; echo $?",
  "command -v T; echo $?",
  "type T; echo $?",
  "ls T; echo $?",
  "head -n 1 T; echo $?",
  "wc -c T; echo $?",
  "sort T; echo $?",
  "cat T/inner; echo $?",
  "cat T/../sibling; echo $?",
  "echo x > T; echo $?",
  "echo x >> T; echo $?",
  "echo x > T/new; echo $?",
  "sort -o T /dev/null; echo $?",
];

async function runEach(script: string, target: (name: string) => string, cwd: string) {
  const seen = new Map<string, unknown>();
  const grant = { fs_read: only([cwd]), fs_write: only([cwd]) };
  for (const name of VARIANTS) {
    const path = target(name);
    const result = await runJudged(script.replaceAll("T", path), cwd, grant);
    const text = JSON.stringify(result).replaceAll(path, "TARGET").replaceAll(name, "NAME");
    seen.set(name, JSON.parse(text));
  }
  return seen;
}

function expectAlike(seen: Map<string, unknown>) {
  const first = seen.get("missing");
  for (const [name, value] of seen) expect(value, name).toEqual(first);
  expect(JSON.stringify(first)).not.toContain("CANARY");
}

describe("the bash interpreter's gate: one answer for a path outside the grant", () => {
  it.each(SCRIPTS)("outside the grant: %s", async (script) => {
    const { grant, outside } = fixture();
    expectAlike(await runEach(script, (name) => join(outside, name), grant));
  });

  it.each(SCRIPTS)("through a link in the grant: %s", async (script) => {
    const { grant } = fixture();
    expectAlike(await runEach(script, (name) => join(grant, `to-${name}`), grant));
  });

  it("refuses every variant with a denial, not an errno", async () => {
    const { grant, outside } = fixture();
    const seen = await runEach("cat T; echo $?", (name) => join(outside, name), grant);
    const missing = seen.get("missing") as Awaited<ReturnType<typeof runJudged>>;
    expect(missing).toMatchObject({ stdout: "1\n", stderr: "cat: TARGET: Permission denied\n" });
    expect(missing.denials.length).toBeGreaterThan(0);
    for (const denial of missing.denials) expect(denial.code).toBe("FS_OUTSIDE_ALLOWED");
  });

  it("positive control: the same scripts inside the grant see what is there", async () => {
    const { grant } = fixture();
    const grantOnly = { fs_read: only([grant]), fs_write: only([grant]) };
    const run = (source: string) => runJudged(source, grant, grantOnly);
    expect((await run("cat inside.txt")).stdout).toBe("inside\n");
    expect((await run("test -e inside.txt; echo $?; test -e absent; echo $?")).stdout).toBe(
      "0\n1\n",
    );
    expect((await run("cat absent; echo $?")).stderr).toBe(
      "cat: absent: No such file or directory\n",
    );
    expect((await run("echo i*")).stdout).toBe("inside.txt\n");
    expect((await run("echo x > made.txt; cat made.txt")).stdout).toBe("x\n");
    expect((await run("mkdir -p sub 2>/dev/null; cd sub 2>&1; echo $?")).stdout).toMatch(/\d\n$/);
  });

  it("still finds the system's programs outside fs_read (the runtime closure is public)", async () => {
    const { grant } = fixture();
    const grantOnly = { fs_read: only([grant]), fs_write: only([grant]) };
    const found = await runJudged("type -P ls; /usr/bin/true; echo $?", grant, grantOnly);
    expect(found.stdout).toMatch(/^\/.*\/ls\n0\n$/);
    const missing = await runJudged("/usr/bin/no-such-program-x; echo $?", grant, grantOnly);
    expect(missing.stdout).toBe("127\n");
  });
});
