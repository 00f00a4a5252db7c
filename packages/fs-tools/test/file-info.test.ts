import { chmod, lstat, readlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createHarness, expectDenied, expectResult } from "./helpers/harness.js";
import { makeFifo } from "./helpers/special-files.js";
import { useWorkspace } from "./helpers/workspace.js";

const ws = useWorkspace((fresh) => ({
  "data.txt": "12345",
  "to-data": { link: "data.txt" },
  "to-outside": { link: path.join(fresh.outside, "secret.txt") },
}));

const info = (target: string, config = {}) =>
  createHarness(ws, { config }).call("file_info", { path: target });

describe("file_info", () => {
  it("describes a file: type, size, permission bits and times", async () => {
    const target = path.join(ws.allowed, "data.txt");
    await chmod(target, 0o640);
    const stats = await lstat(target);
    const result = expectResult(await info(target));
    expect(result).toEqual({
      path: target,
      type: "file",
      size: 5,
      mode: 0o640,
      mtime_ms: expect.closeTo(stats.mtimeMs, 0),
      ctime_ms: expect.closeTo(stats.ctimeMs, 0),
      atime_ms: expect.closeTo(stats.atimeMs, 0),
    });
  });

  it("describes a directory and a FIFO without opening them", async () => {
    makeFifo(path.join(ws.allowed, "pipe"));
    expect(expectResult(await info(ws.allowed)).type).toBe("directory");
    expect(expectResult(await info(path.join(ws.allowed, "pipe"))).type).toBe("fifo");
  });

  it("describes a final link as a link, with its target text, when links are not followed", async () => {
    const target = path.join(ws.allowed, "to-data");
    const result = expectResult(await info(target));
    expect(result).toMatchObject({ type: "symlink", link_target: await readlink(target) });
    expect(result.size).toBe("data.txt".length);
  });

  it("describes the target when links are followed", async () => {
    const result = expectResult(
      await info(path.join(ws.allowed, "to-data"), { followSymlinks: true }),
    );
    expect(result).toMatchObject({ type: "file", size: 5 });
    expect(result.link_target).toBeUndefined();
  });

  it("refuses a link leading outside, followed or not", async () => {
    const target = path.join(ws.allowed, "to-outside");
    expectDenied(await info(target), "FS_SYMLINK_ESCAPE");
    expectDenied(await info(target, { followSymlinks: true }), "FS_SYMLINK_ESCAPE");
  });

  it("refuses a path that does not exist, saying so", async () => {
    const value = await info(path.join(ws.allowed, "nope.txt"));
    expectDenied(value, "FS_NOT_FOUND");
  });
});
