// directory_tree (issue 17 point 9): a bounded walk, every directory judged and opened on
// its own, and the attack catalogue's fs entries (§1, one test per applicable entry; the
// races A18, A20 are in catalogue-races.test.ts): outside the grant, a blocked location
// inside it (left out and never opened), a link leading out (listed as a link, never
// followed), a huge tree (A96: bounded in depth and entries, with truncated). Every open
// the tool asks core for is recorded, so a denied or left-out entry is shown never opened.
import { closeSync, mkdirSync, openSync, symlinkSync, writeFileSync } from "node:fs";
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
import { makeFifo, makeSocket } from "./helpers/special-files.js";
import { buildTree, useWorkspace } from "./helpers/workspace.js";

vi.mock("@agent-bridle/core", async (original) =>
  (await import("./helpers/recorded-opens.js")).recordingCore(original),
);
afterEach(() => {
  opened.length = 0;
});

const ws = useWorkspace();
const openedUnder = (root: string) =>
  opened.filter((location) => location === root || location.startsWith(`${root}/`));
const pathsOf = (result: { entries: { path: string }[] }) =>
  result.entries.map((entry) => entry.path);
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

describe("attack catalogue, fs entries, through directory_tree", () => {
  it("A02: `..` and absolute paths outside the root are refused, nothing opened there", async () => {
    await buildTree(ws.allowed, { "sub/.keep": "" });
    const tools = createHarness(ws, { config: { baseDir: ws.allowed } });
    for (const target of [
      path.join(ws.allowed, ".."),
      `${ws.allowed}/sub/../../outside`,
      "..",
      ws.outside,
    ]) {
      expectDenied(await tree(tools, { path: target }), "FS_OUTSIDE_ALLOWED");
    }
    expect(openedUnder(ws.outside)).toEqual([]);
    // positive control: the root itself is listed
    expect(pathsOf(expectResult(await tree(tools, { path: ws.allowed })))).toContain("ok.txt");
    // and the recorder sees the opens it made, so the empty lists above are not vacuous
    expect(openedUnder(ws.allowed)).toContain(ws.allowed);
  });

  it("A04: a relative path resolves against the configured base, never the host's working directory", async () => {
    const cwd = process.cwd();
    process.chdir(ws.outside);
    try {
      expectDenied(await tree(createHarness(ws), { path: "." }), "FS_NO_BASE_DIR");
      const based = createHarness(ws, { config: { baseDir: ws.allowed } });
      const listed = expectResult(await tree(based, { path: "." }));
      expect(listed.path).toBe(ws.allowed);
      expect(pathsOf(listed)).toContain("ok.txt");
      expect(pathsOf(listed)).not.toContain("secret.txt");
    } finally {
      process.chdir(cwd);
    }
    expect(openedUnder(ws.outside)).toEqual([]);
  });

  it("A06, A10: a link out of the root is refused as the root and listed, never followed, inside the tree", async () => {
    await buildTree(ws.allowed, {
      "tree/dirlink": { link: ws.outside },
      "tree/filelink": { link: path.join(ws.outside, "secret.txt") },
      "tree/dang": { link: path.join(ws.outside, "notyet.txt") },
      "tree/in.txt": "inside",
    });
    for (const followSymlinks of [false, true]) {
      const tools = createHarness(ws, { config: { followSymlinks } });
      for (const root of ["tree/dirlink", "tree/dang"]) {
        expectDenied(await tree(tools, { path: path.join(ws.allowed, root) }), "FS_SYMLINK_ESCAPE");
      }
      const walked = expectResult(await tree(tools, { path: path.join(ws.allowed, "tree") }));
      // positive control in the same call: the file inside the root is listed
      expect(walked.entries).toEqual([
        { path: "dang", type: "symlink", depth: 1 },
        { path: "dirlink", type: "symlink", depth: 1 },
        { path: "filelink", type: "symlink", depth: 1 },
        { path: "in.txt", type: "file", depth: 1 },
      ]);
      expect(JSON.stringify(walked)).not.toContain(ws.outside);
    }
    expect(openedUnder(ws.outside)).toEqual([]);
  });

  it("A08: `..` after a link is removed as text first, so the tree is of $A (pinned: the decoy, never the outside)", async () => {
    await buildTree(ws.outside, { "inner/only-outside.txt": "CANARY-OUT" });
    await buildTree(ws.allowed, {
      link: { link: path.join(ws.outside, "inner") },
      "secret.txt": "DECOY-IN",
    });
    const result = expectResult(await tree(createHarness(ws), { path: `${ws.allowed}/link/..` }));
    expect(result.path).toBe(ws.allowed);
    expect(pathsOf(result)).toContain("secret.txt");
    expect(JSON.stringify(result)).not.toContain("only-outside");
    expect(openedUnder(ws.outside)).toEqual([]);
  });

  it("A12, A14: a blocked root is refused on every spelling; blocked entries are left out and never opened", async () => {
    await buildTree(ws.blocked, { "sub/k.txt": "CANARY-BLK" });
    await buildTree(ws.allowed, { "private/key.txt": "CANARY-BLK", "open.txt": "x" });
    const tools = createHarness(ws, {
      config: {
        allowedPaths: [ws.allowed, path.join(ws.blocked, "sub")],
        blockedPaths: withBlocked(ws.blocked, path.join(ws.allowed, "Private")),
      },
    });
    for (const target of [
      ws.blocked,
      `${ws.allowed}/./blocked`,
      `${ws.allowed}//blocked/`,
      `${ws.allowed}/x/../blocked`,
      path.join(ws.blocked, "sub"),
      path.join(ws.allowed, "private"),
      path.join(ws.allowed, "PRIVATE/..", "private"),
    ]) {
      expectDenied(await tree(tools, { path: target }), "FS_BLOCKED");
    }
    const walked = expectResult(await tree(tools, { path: ws.allowed }));
    // positive control: the unblocked neighbours are listed
    expect(pathsOf(walked)).toEqual(["ok.txt", "open.txt"]);
    expect(openedUnder(ws.blocked)).toEqual([]);
    expect(openedUnder(path.join(ws.allowed, "private"))).toEqual([]);
  });

  it("A16: a root reached through a link is listed under either spelling; its blocked part is not", async () => {
    await buildTree(ws.root, {
      "real/tree/ok.txt": "OK",
      "real/tree/blocked/key.txt": "CANARY-BLK",
      alias: { link: path.join(ws.root, "real") },
    });
    const alias = path.join(ws.root, "alias");
    const tools = createHarness(ws, {
      grant: { fs_read: { only: [alias] } },
      config: {
        allowedPaths: [alias],
        blockedPaths: withBlocked(path.join(alias, "tree/blocked")),
      },
    });
    for (const root of [path.join(alias, "tree"), path.join(ws.root, "real/tree")]) {
      expect(pathsOf(expectResult(await tree(tools, { path: root })))).toEqual(["ok.txt"]);
      expectDenied(await tree(tools, { path: path.join(root, "blocked") }), "FS_BLOCKED");
    }
    expect(openedUnder(path.join(ws.root, "real/tree/blocked"))).toEqual([]);
  });

  it("A22: the host's descriptors are refused as roots and listed, never opened, as links in the tree", async () => {
    const fd = openSync(path.join(ws.outside, "secret.txt"), "r");
    try {
      await buildTree(ws.allowed, { "fds/fdlink": { link: `/proc/self/fd/${fd}` } });
      const tools = createHarness(ws, {
        grant: { fs_read: "all" },
        policy: { blocked: ["/proc", "/dev"], writeBlocked: [] },
        config: { followSymlinks: true },
      });
      for (const target of ["/proc/self/fd", "/dev/fd", `/proc/self/fd/${fd}`, "/dev/stdin"]) {
        const value = await tree(tools, { path: target });
        expect(value.denied, target).toBe(true);
      }
      const walked = expectResult(await tree(tools, { path: path.join(ws.allowed, "fds") }));
      expect(walked.entries).toEqual([{ path: "fdlink", type: "symlink", depth: 1 }]);
      expect(openedUnder("/proc")).toEqual([]);
      expect(openedUnder(ws.outside)).toEqual([]);
    } finally {
      closeSync(fd);
    }
  });

  it("A24: NUL and control characters are an invalid path, nothing opened", async () => {
    const tools = createHarness(ws);
    for (const target of [
      `${ws.allowed}\u0000/../outside`,
      `${ws.allowed}/ok\u0001`,
      `${ws.allowed}\u0000`,
    ]) {
      const value = await tree(tools, { path: target });
      expectDenied(value, "FS_INVALID_PATH");
      expect(value.denials?.[0]?.reason ?? "").not.toMatch(/\n\s+at |Error:/);
    }
    expect(opened).toEqual([]);
  });

  it("A26: FIFO, socket and device links in the tree are listed without being opened; a FIFO root is refused, nothing blocks", async () => {
    await buildTree(ws.allowed, { "special/zero": { link: "/dev/zero" } });
    makeFifo(path.join(ws.allowed, "special/pipe"));
    const server = await makeSocket(path.join(ws.allowed, "special/sock"));
    try {
      const tools = createHarness(ws);
      const walked = expectResult(await tree(tools, { path: path.join(ws.allowed, "special") }));
      expect(walked.entries).toEqual([
        { path: "pipe", type: "fifo", depth: 1 },
        { path: "sock", type: "socket", depth: 1 },
        { path: "zero", type: "symlink", depth: 1 },
      ]);
      expect(openedUnder(path.join(ws.allowed, "special/pipe"))).toEqual([]);
      expectDenied(
        await tree(tools, { path: path.join(ws.allowed, "special/pipe") }),
        "FS_NOT_REGULAR",
      );
    } finally {
      server.close();
    }
  });
});
