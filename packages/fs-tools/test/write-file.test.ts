import { chmod, link, lstat, readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createHarness, expectDenied, expectResult } from "./helpers/harness.js";
import { buildTree, snapshot, useWorkspace } from "./helpers/workspace.js";

const ws = useWorkspace();

const write = (args: Record<string, unknown>, config = {}) =>
  createHarness(ws, { config }).call("write_file", args);

/** No temporary files are left next to the target. */
async function expectNoTemp(directory: string) {
  expect((await readdir(directory)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
}

describe("write_file", () => {
  it("creates a file and reports bytes written", async () => {
    const target = path.join(ws.allowed, "new.txt");
    const result = expectResult(await write({ path: target, content: "héllo" }));
    expect(result).toEqual({ path: target, bytes_written: 6, created: true });
    expect(await readFile(target, "utf8")).toBe("héllo");
    await expectNoTemp(ws.allowed);
  });

  it("replaces a file atomically, keeping its permission bits", async () => {
    const target = path.join(ws.allowed, "ok.txt");
    await chmod(target, 0o600);
    const before = await stat(target);
    const result = expectResult(await write({ path: target, content: "NEW" }));
    expect(result).toMatchObject({ created: false, bytes_written: 3 });
    const after = await stat(target);
    expect(await readFile(target, "utf8")).toBe("NEW");
    expect(after.ino).not.toBe(before.ino);
    expect(after.mode & 0o777).toBe(0o600);
    await expectNoTemp(ws.allowed);
  });

  it("replacing a hard-linked name leaves the other name's file unchanged", async () => {
    const target = path.join(ws.allowed, "hard.txt");
    await link(path.join(ws.allowed, "ok.txt"), target);
    expectResult(await write({ path: target, content: "NEW" }));
    expect(await readFile(path.join(ws.allowed, "ok.txt"), "utf8")).toBe("OK");
  });

  it("create mode refuses an existing file and changes nothing", async () => {
    const target = path.join(ws.allowed, "ok.txt");
    expectDenied(await write({ path: target, content: "X", mode: "create" }), "FS_ALREADY_EXISTS");
    expect(await readFile(target, "utf8")).toBe("OK");
    const fresh = path.join(ws.allowed, "fresh.txt");
    expectResult(await write({ path: fresh, content: "F", mode: "create" }));
    expect(await readFile(fresh, "utf8")).toBe("F");
    await expectNoTemp(ws.allowed);
  });

  it("appends in place, creating a missing file", async () => {
    const target = path.join(ws.allowed, "log.txt");
    expect(
      expectResult(await write({ path: target, content: "a\n", mode: "append" })).created,
    ).toBe(true);
    const inode = (await stat(target)).ino;
    expect(
      expectResult(await write({ path: target, content: "b\n", mode: "append" })).created,
    ).toBe(false);
    expect(await readFile(target, "utf8")).toBe("a\nb\n");
    expect((await stat(target)).ino).toBe(inode);
  });

  it("refuses a missing parent unless create_parents is set", async () => {
    const target = path.join(ws.allowed, "x", "y", "z.txt");
    const value = await write({ path: target, content: "Z" });
    expectDenied(value, "FS_NOT_FOUND");
    expect(value.denials?.[0]?.reason).toContain("create_parents");
    expect(await snapshot(ws.allowed)).not.toHaveProperty("x/");
    expectResult(await write({ path: target, content: "Z", create_parents: true }));
    expect(await readFile(target, "utf8")).toBe("Z");
  });

  it("refuses content over maxWriteSize and writes nothing", async () => {
    const target = path.join(ws.allowed, "big.txt");
    expectDenied(
      await write({ path: target, content: "ééé" }, { maxWriteSize: 5 }),
      "FS_TOO_LARGE",
    );
    await expect(lstat(target)).rejects.toThrow();
    await expect(
      write({ path: target, content: "x".repeat(6) }, { maxWriteSize: 5 }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENTS" });
  });

  it("refuses a directory and a final link when links are not followed", async () => {
    await buildTree(ws.allowed, { "to-ok": { link: "ok.txt" } });
    expectDenied(await write({ path: ws.blocked, content: "X" }), "FS_NOT_REGULAR");
    expectDenied(
      await write({ path: path.join(ws.allowed, "to-ok"), content: "X" }),
      "FS_NOT_REGULAR",
    );
    expect(await readFile(path.join(ws.allowed, "ok.txt"), "utf8")).toBe("OK");
    expectResult(
      await write({ path: path.join(ws.allowed, "to-ok"), content: "Y" }, { followSymlinks: true }),
    );
    expect(await readFile(path.join(ws.allowed, "ok.txt"), "utf8")).toBe("Y");
    expect((await lstat(path.join(ws.allowed, "to-ok"))).isSymbolicLink()).toBe(true);
  });

  it("needs fs_write: a read-only grant writes nothing", async () => {
    const harness = createHarness(ws, { grant: { fs_write: { only: [] } } });
    const target = path.join(ws.allowed, "new.txt");
    expectDenied(
      await harness.call("write_file", { path: target, content: "X" }),
      "FS_OUTSIDE_ALLOWED",
    );
    await expect(lstat(target)).rejects.toThrow();
  });

  it("explains a directory the grant does not let it write a temporary file in", async () => {
    const target = path.join(ws.allowed, "ok.txt");
    const harness = createHarness(ws, { grant: { fs_write: { only: [target] } } });
    const value = await harness.call("write_file", { path: target, content: "X" });
    expectDenied(value, "FS_OUTSIDE_ALLOWED");
    expect(value.denials?.[0]?.reason).toContain("temporary file");
    expect(await readFile(target, "utf8")).toBe("OK");
    const appended = await harness.call("write_file", {
      path: target,
      content: "+",
      mode: "append",
    });
    expectResult(appended);
    expect(await readFile(target, "utf8")).toBe("OK+");
  });
});
