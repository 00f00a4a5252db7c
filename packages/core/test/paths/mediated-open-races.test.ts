import { existsSync } from "node:fs";
import { readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type JudgedPath, judgePath } from "../../src/paths/judge-path.js";
import { openPathRead } from "../../src/paths/mediated-open.js";
import { openJudgedPath } from "../../src/paths/open-judged-path.js";
import { buildTree, createTempRoot, NO_BLOCKS, removeTempRoot } from "./temp-root.js";

// A link or file swapped in after the check must not redirect the open. The swap is
// done between `judgePath` and `openJudgedPath`, the window the mediated open guards.
let root: string;
let allowed: string;
let outside: string;

beforeEach(async () => {
  root = await createTempRoot();
  allowed = path.join(root, "allowed");
  outside = path.join(root, "outside");
  await buildTree(root, {
    "allowed/sub/f.txt": "DECOY-IN",
    "outside/f.txt": "CANARY-OUT",
    "outside/secret.txt": "CANARY-OUT",
  });
});
afterEach(async () => removeTempRoot(root));

async function judged(target: string, op: "read" | "write"): Promise<JudgedPath> {
  const decision = await judgePath({
    path: target,
    op,
    scope: { only: [allowed] },
    policy: NO_BLOCKS,
  });
  if (!decision.ok) throw new Error(decision.denial.reason);
  return decision.value;
}

describe.runIf(process.platform !== "win32")("mediated open: swaps after the check", () => {
  it("refuses a final component replaced by a link to an outside file", async () => {
    const target = path.join(allowed, "sub/f.txt");
    const request = { path: target, scope: { only: [allowed] }, policy: NO_BLOCKS };
    const before = await judgePath({ ...request, op: "read" });
    expect(before.ok).toBe(true);
    await rm(target);
    await symlink(path.join(outside, "secret.txt"), target);
    const again = await openPathRead(request);
    expect(again).toMatchObject({ ok: false, denial: { code: "FS_SYMLINK_ESCAPE" } });
    if (!before.ok) return;
    const stale = await openJudgedPath(before.value, { op: "read" });
    expect(stale).toMatchObject({ ok: false, denial: { code: "FS_SYMLINK_ESCAPE" } });
    expect(JSON.stringify(stale)).not.toContain("CANARY");
  });

  it("does not write through a final component swapped for a link", async () => {
    const target = path.join(allowed, "sub/f.txt");
    const judgement = await judged(target, "write");
    await rm(target);
    await symlink(path.join(outside, "secret.txt"), target);
    const opened = await openJudgedPath(judgement, { op: "write" });
    expect(opened).toMatchObject({ ok: false, denial: { code: "FS_SYMLINK_ESCAPE" } });
    expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("CANARY-OUT");
  });

  it("refuses a directory swapped for a link: escaped the scope during resolution", async () => {
    const judgement = await judged(path.join(allowed, "sub/f.txt"), "read");
    await rename(path.join(allowed, "sub"), path.join(allowed, "sub-old"));
    await symlink(outside, path.join(allowed, "sub"));
    const opened = await openJudgedPath(judgement, { op: "read" });
    expect(opened.ok).toBe(false);
    if (opened.ok) return;
    expect(opened.denial.code).toBe("FS_SYMLINK_ESCAPE");
    expect(opened.denial.reason).toContain("escaped the granted scope during resolution");
    expect(opened.denial.reason).not.toContain("CANARY");
  });

  it("refuses another regular file renamed over the judged one", async () => {
    const target = path.join(allowed, "sub/f.txt");
    const judgement = await judged(target, "write");
    await writeFile(path.join(allowed, "sub/other.txt"), "OTHER");
    await rename(path.join(allowed, "sub/other.txt"), target);
    const opened = await openJudgedPath(judgement, { op: "write" });
    expect(opened).toMatchObject({ ok: false, denial: { code: "FS_CHANGED_DURING_OPEN" } });
    expect(await readFile(target, "utf8")).toBe("OTHER");
  });

  it("does not follow a link planted where a new file was judged", async () => {
    const target = path.join(allowed, "sub/new.txt");
    const judgement = await judged(target, "write");
    expect(judgement.exists).toBe(false);
    await symlink(path.join(outside, "created.txt"), target);
    const opened = await openJudgedPath(judgement, { op: "write" });
    expect(opened).toMatchObject({ ok: false, denial: { code: "FS_CHANGED_DURING_OPEN" } });
    expect(existsSync(path.join(outside, "created.txt"))).toBe(false);
  });

  it("opens the judged file when nothing changed", async () => {
    const judgement = await judged(path.join(allowed, "sub/f.txt"), "read");
    const opened = await openJudgedPath(judgement, { op: "read" });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(await opened.value.handle.readFile("utf8")).toBe("DECOY-IN");
    await opened.value.handle.close();
  });
});
