import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkWorkingDirectory } from "../../src/funnel/working-directory.js";
import { contextFor, useTempDir } from "./helpers/funnel-context.js";

describe.runIf(process.platform !== "win32")("checkWorkingDirectory", () => {
  const tempDir = useTempDir();
  const scratch = () => realpathSync(tempDir());

  it("answers the real location of a directory, also through a link", async () => {
    const root = scratch();
    mkdirSync(join(root, "work"));
    symlinkSync(join(root, "work"), join(root, "via-link"));
    const cx = contextFor({ fs_read: { only: [root] } });
    expect(await checkWorkingDirectory(cx, join(root, "via-link"), undefined)).toEqual({
      ok: true,
      path: join(root, "work"),
    });
    expect(await checkWorkingDirectory(cx, undefined, join(root, "work"))).toEqual({
      ok: true,
      path: join(root, "work"),
    });
  });

  it("refuses a file, a link to a file and a missing directory as FS_NOT_FOUND", async () => {
    const root = scratch();
    writeFileSync(join(root, "file"), "x");
    symlinkSync(join(root, "file"), join(root, "file-link"));
    const cx = contextFor({ fs_read: { only: [root] } });
    for (const cwd of ["file", "file-link", "missing"]) {
      const decision = await checkWorkingDirectory(cx, join(root, cwd), undefined);
      expect(decision).toMatchObject({ ok: false, denial: { code: "FS_NOT_FOUND" } });
    }
  });

  it("judges the directory against fs_read, and needs a cwd or a base directory", async () => {
    const root = scratch();
    mkdirSync(join(root, "inside"));
    mkdirSync(join(root, "outside"));
    const cx = contextFor({ fs_read: { only: [join(root, "inside")] } });
    expect(await checkWorkingDirectory(cx, join(root, "outside"), undefined)).toMatchObject({
      ok: false,
      denial: { code: "FS_OUTSIDE_ALLOWED" },
    });
    expect(await checkWorkingDirectory(cx, undefined, undefined)).toMatchObject({
      ok: false,
      denial: { code: "FS_NO_BASE_DIR" },
    });
  });
});
