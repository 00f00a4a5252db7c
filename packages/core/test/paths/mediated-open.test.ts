import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type OpenPathRequest,
  openPathRead,
  openPathWrite,
} from "../../src/paths/mediated-open.js";
import { buildTree, createTempRoot, NO_BLOCKS, removeTempRoot } from "./temp-root.js";

let root: string;
let allowed: string;
let outside: string;

beforeEach(async () => {
  root = await createTempRoot();
  allowed = path.join(root, "allowed");
  outside = path.join(root, "outside");
  await buildTree(root, { "allowed/ok.txt": "OK-CONTENT", "outside/secret.txt": "CANARY-OUT" });
});
afterEach(async () => removeTempRoot(root));

function request(target: string, overrides: Partial<OpenPathRequest> = {}): OpenPathRequest {
  return { path: target, scope: { only: [allowed] }, policy: NO_BLOCKS, ...overrides };
}

describe.runIf(process.platform !== "win32")("mediated open: denials leave no effect", () => {
  it("creates nothing outside the scope", async () => {
    const target = path.join(outside, "created.txt");
    const opened = await openPathWrite(request(target));
    expect(opened).toMatchObject({ ok: false, denial: { code: "FS_OUTSIDE_ALLOWED" } });
    expect(existsSync(target)).toBe(false);
  });

  it("creates nothing through a dangling leaf link", async () => {
    await buildTree(root, { "allowed/w": { link: path.join(outside, "created.txt") } });
    const opened = await openPathWrite(request(path.join(allowed, "w")));
    // A link to outside is an escape whether its target exists (catalogue A34 said
    // "dangling-link"; kernel-boundary.md §1 item 7 asks for one answer).
    expect(opened).toMatchObject({ ok: false, denial: { code: "FS_SYMLINK_ESCAPE" } });
    expect(existsSync(path.join(outside, "created.txt"))).toBe(false);
  });

  it("creates nothing at a write-blocked location", async () => {
    const target = path.join(allowed, ".git/hooks/pre-commit");
    await buildTree(root, { "allowed/.git/hooks": { dir: true } });
    const policy = { blocked: [], writeBlocked: ["**/.git/hooks/**"] };
    const opened = await openPathWrite(request(target, { policy }));
    expect(opened).toMatchObject({ ok: false, denial: { code: "FS_BLOCKED" } });
    expect(existsSync(target)).toBe(false);
  });

  it("does not truncate through a link that leads out", async () => {
    await buildTree(root, { "allowed/out": { link: path.join(outside, "secret.txt") } });
    const opened = await openPathWrite(request(path.join(allowed, "out")));
    expect(opened).toMatchObject({ ok: false, denial: { code: "FS_SYMLINK_ESCAPE" } });
    expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("CANARY-OUT");
  });
});

describe.runIf(process.platform !== "win32")("mediated open: write options", () => {
  it("replaces an existing file's contents by default", async () => {
    const opened = await openPathWrite(request(path.join(allowed, "ok.txt")));
    if (!opened.ok) throw new Error(opened.denial.reason);
    await opened.value.handle.writeFile("ab");
    await opened.value.handle.close();
    expect(await readFile(path.join(allowed, "ok.txt"), "utf8")).toBe("ab");
  });

  it("refuses to create with create: false, and an existing file with exclusive", async () => {
    const missing = path.join(allowed, "missing.txt");
    const noCreate = await openPathWrite({ ...request(missing), create: false });
    expect(noCreate).toMatchObject({ ok: false, denial: { code: "FS_NOT_FOUND" } });
    expect(existsSync(missing)).toBe(false);
    const exclusive = await openPathWrite({
      ...request(path.join(allowed, "ok.txt")),
      exclusive: true,
    });
    expect(exclusive).toMatchObject({ ok: false, denial: { code: "FS_ALREADY_EXISTS" } });
    expect(await readFile(path.join(allowed, "ok.txt"), "utf8")).toBe("OK-CONTENT");
  });

  it("refuses a directory for writing and a missing parent", async () => {
    const directory = await openPathWrite(request(allowed));
    expect(directory).toMatchObject({ ok: false, denial: { code: "FS_NOT_REGULAR" } });
    const orphan = path.join(allowed, "no-such-dir/file.txt");
    const parentless = await openPathWrite(request(orphan));
    expect(parentless).toMatchObject({ ok: false, denial: { code: "FS_NOT_FOUND" } });
    expect(existsSync(orphan)).toBe(false);
  });

  it("applies the mode to a created file", async () => {
    const target = path.join(allowed, "private.txt");
    const opened = await openPathWrite({ ...request(target), mode: 0o600 });
    if (!opened.ok) throw new Error(opened.denial.reason);
    const info = await opened.value.handle.stat();
    await opened.value.handle.close();
    expect(info.mode & 0o077).toBe(0);
  });
});

describe.runIf(process.platform === "linux")("mediated open: FIFOs never hang", () => {
  it("opens a FIFO's read end at once and refuses its write end without a reader", async () => {
    const fifo = path.join(allowed, "pipe");
    execFileSync("mkfifo", [fifo]);
    const reading = await openPathRead(request(fifo));
    expect(reading.ok).toBe(true);
    if (reading.ok) {
      expect((await reading.value.handle.stat()).isFIFO()).toBe(true);
      await reading.value.handle.close();
    }
    const writing = await openPathWrite(request(fifo));
    expect(writing).toMatchObject({ ok: false, denial: { code: "FS_NOT_REGULAR" } });
  });
});
