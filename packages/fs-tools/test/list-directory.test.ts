import path from "node:path";
import { describe, expect, it } from "vitest";
import { createHarness, expectDenied, expectResult, withBlocked } from "./helpers/harness.js";
import { buildTree, useWorkspace } from "./helpers/workspace.js";

const ws = useWorkspace((fresh) => ({
  "b.ts": "bb",
  "a.md": "a",
  ".hidden.md": "h",
  "sub/x.txt": "x",
  "in-link": { link: "ok.txt" },
  "out-link": { link: path.join(fresh.outside, "secret.txt") },
}));

const list = (args: Record<string, unknown>, config = {}) =>
  createHarness(ws, { config: { blockedPaths: withBlocked(ws.blocked), ...config } }).call(
    "list_directory",
    args,
  );

describe("list_directory", () => {
  it("lists name, type and size, sorted, links not followed, blocked entries left out", async () => {
    const result = expectResult(await list({ path: ws.allowed }));
    expect(result.path).toBe(ws.allowed);
    expect(result.truncated).toBe(false);
    expect(result.entries).toEqual([
      { name: ".hidden.md", type: "file", size: 1 },
      { name: "a.md", type: "file", size: 1 },
      { name: "b.ts", type: "file", size: 2 },
      { name: "in-link", type: "symlink", size: "ok.txt".length },
      { name: "ok.txt", type: "file", size: 2 },
      { name: "out-link", type: "symlink", size: path.join(ws.outside, "secret.txt").length },
      { name: "sub", type: "directory", size: expect.any(Number) },
    ]);
  });

  it("filters names with a glob (dot files only when the pattern names them)", async () => {
    const md = expectResult(await list({ path: ws.allowed, pattern: "*.md" }));
    expect(md.entries.map((entry: { name: string }) => entry.name)).toEqual(["a.md"]);
    const dotted = expectResult(await list({ path: ws.allowed, pattern: ".*.md" }));
    expect(dotted.entries.map((entry: { name: string }) => entry.name)).toEqual([".hidden.md"]);
    const braces = expectResult(await list({ path: ws.allowed, pattern: "{a,b}.*" }));
    expect(braces.entries.map((entry: { name: string }) => entry.name)).toEqual(["a.md", "b.ts"]);
  });

  it("bounds the count with an exact truncation flag", async () => {
    const two = expectResult(await list({ path: ws.allowed, limit: 2 }));
    expect(two.entries).toHaveLength(2);
    expect(two.truncated).toBe(true);
    const all = expectResult(await list({ path: ws.allowed, limit: 7 }));
    expect(all.entries).toHaveLength(7);
    expect(all.truncated).toBe(false);
  });

  it("rejects a limit over maxListEntries and an invalid pattern as invalid arguments", async () => {
    const harness = createHarness(ws, { config: { maxListEntries: 5 } });
    await expect(
      harness.call("list_directory", { path: ws.allowed, limit: 6 }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENTS" });
    await expect(
      harness.call("list_directory", { path: ws.allowed, limit: 0 }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENTS" });
    await expect(
      harness.call("list_directory", { path: ws.allowed, pattern: "x".repeat(300) }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENTS" });
  });

  it("follows a link entry only to a target within reach when followSymlinks is on", async () => {
    const result = expectResult(await list({ path: ws.allowed }, { followSymlinks: true }));
    const byName = Object.fromEntries(
      result.entries.map((entry: { name: string }) => [entry.name, entry]),
    );
    expect(byName["in-link"]).toEqual({ name: "in-link", type: "file", size: 2 });
    expect(byName["out-link"]).toMatchObject({ type: "symlink" });
  });

  it("refuses a file, and a link as the listed path when links are not followed", async () => {
    await buildTree(ws.allowed, { "dir-link": { link: "sub" } });
    expectDenied(await list({ path: path.join(ws.allowed, "ok.txt") }), "FS_NOT_REGULAR");
    const value = await list({ path: path.join(ws.allowed, "dir-link") });
    expectDenied(value, "FS_NOT_REGULAR");
    expect(value.denials?.[0]?.reason).toContain("followSymlinks is false");
    const followed = expectResult(
      await list({ path: path.join(ws.allowed, "dir-link") }, { followSymlinks: true }),
    );
    expect(followed.entries).toEqual([{ name: "x.txt", type: "file", size: 1 }]);
  });

  it("refuses the blocked directory and a directory outside", async () => {
    expectDenied(await list({ path: ws.blocked }), "FS_BLOCKED");
    expectDenied(await list({ path: ws.outside }), "FS_OUTSIDE_ALLOWED");
  });
});
