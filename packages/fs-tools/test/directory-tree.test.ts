// directory_tree (issue 17 point 9): a bounded walk, every directory judged and opened on
// its own, and the attack catalogue's fs entries (§1): outside the grant, a blocked
// location inside it (left out and never opened), a link leading out (listed as a link,
// never followed), a huge tree (A96: bounded in depth and entries, with truncated).
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DirectoryTreeToolResultSchema } from "@agent-bridle/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createHarness,
  expectDenied,
  expectNoCanary,
  expectResult,
  withBlocked,
} from "./helpers/harness.js";
import { opened } from "./helpers/recorded-opens.js";
import { useWorkspace } from "./helpers/workspace.js";

vi.mock("@agent-bridle/core", async (original) =>
  (await import("./helpers/recorded-opens.js")).recordingCore(original),
);
afterEach(() => {
  opened.length = 0;
});

const ws = useWorkspace();
const tree = async (harness: ReturnType<typeof createHarness>, args: object) => {
  const value = await harness.call("directory_tree", args);
  DirectoryTreeToolResultSchema.parse(value);
  expectNoCanary(value);
  return value;
};

describe("directory_tree", () => {
  it("lists the entries and subdirectories in walk order with depth", async () => {
    mkdirSync(path.join(ws.allowed, "sub", "deep"), { recursive: true });
    writeFileSync(path.join(ws.allowed, "sub", "a.ts"), "a");
    writeFileSync(path.join(ws.allowed, "sub", "deep", "b.ts"), "b");
    const result = expectResult(await tree(createHarness(ws), { path: ws.allowed }));
    expect(result.entries).toEqual([
      // $B, not blocked under this harness's policy: listed like any directory.
      { path: "blocked", type: "directory", depth: 1 },
      { path: "blocked/key.txt", type: "file", depth: 2 },
      { path: "ok.txt", type: "file", depth: 1 },
      { path: "sub", type: "directory", depth: 1 },
      { path: "sub/a.ts", type: "file", depth: 2 },
      { path: "sub/deep", type: "directory", depth: 2 },
      { path: "sub/deep/b.ts", type: "file", depth: 3 },
    ]);
    expect(result.truncated).toBe(false);
  });

  it("refuses a directory outside the grant, opening nothing of it", async () => {
    expectDenied(await tree(createHarness(ws), { path: ws.outside }), "FS_OUTSIDE_ALLOWED");
    expect(opened.filter((location) => location.startsWith(ws.outside))).toEqual([]);
  });

  it("leaves a blocked entry out and never opens it; its neighbours stay listed", async () => {
    const harness = createHarness(ws, { config: { blockedPaths: withBlocked(ws.blocked) } });
    const result = expectResult(await tree(harness, { path: ws.allowed }));
    const names = result.entries.map((entry: { path: string }) => entry.path);
    expect(names).toContain("ok.txt");
    expect(names).not.toContain(path.relative(ws.allowed, ws.blocked));
    expect(opened.filter((location) => location.startsWith(ws.blocked))).toEqual([]);
  });

  it("lists a link leading out of the grant as a link and never follows it", async () => {
    symlinkSync(ws.outside, path.join(ws.allowed, "out"));
    const result = expectResult(await tree(createHarness(ws), { path: ws.allowed }));
    expect(result.entries).toContainEqual({ path: "out", type: "symlink", depth: 1 });
    expect(JSON.stringify(result)).not.toContain("secret.txt");
    expect(opened.filter((location) => location.startsWith(ws.outside))).toEqual([]);
  });

  it("A96: is bounded in depth and in entries, and says truncated", async () => {
    let nested = ws.allowed;
    for (let level = 0; level < 6; level += 1) {
      nested = path.join(nested, `d${level}`);
      mkdirSync(nested);
    }
    for (let index = 0; index < 50; index += 1) {
      writeFileSync(path.join(ws.allowed, `f${index}.txt`), "x");
    }
    const harness = createHarness(ws);
    const shallow = expectResult(await tree(harness, { path: ws.allowed, max_depth: 2 }));
    expect(Math.max(...shallow.entries.map((entry: { depth: number }) => entry.depth))).toBe(2);
    expect(shallow.truncated).toBe(true);
    const few = expectResult(await tree(harness, { path: ws.allowed, max_entries: 10 }));
    expect(few.entries).toHaveLength(10);
    expect(few.truncated).toBe(true);
    // Positive control: with room for everything, nothing is cut.
    const all = expectResult(await tree(harness, { path: ws.allowed, max_depth: 16 }));
    expect(all.truncated).toBe(false);
    // ok.txt, $B and its key.txt, the six nested directories, the fifty files.
    expect(all.entries).toHaveLength(3 + 6 + 50);
  });
});
