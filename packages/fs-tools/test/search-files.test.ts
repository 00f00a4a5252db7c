// search_files (issue 17 point 9): literal content search under a directory, every
// directory and file judged and opened on its own, and the attack catalogue's fs entries
// (§1, A96). Every open the tool asks core for is recorded, so a denial or a skipped
// entry is shown never opened, not only never returned.
import { execFileSync } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import path from "node:path";
import { SearchFilesToolResultSchema } from "@agent-bridle/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createHarness,
  expectDenied,
  expectNoCanary,
  expectResult,
  withBlocked,
} from "./helpers/harness.js";
import { opened } from "./helpers/recorded-opens.js";
import { buildTree, useWorkspace } from "./helpers/workspace.js";

vi.mock("@agent-bridle/core", async (original) =>
  (await import("./helpers/recorded-opens.js")).recordingCore(original),
);
afterEach(() => {
  opened.length = 0;
});

const ws = useWorkspace();
const search = (target: string, query: string, extra = {}) => ({ path: target, query, ...extra });
const openedUnder = (root: string) =>
  opened.filter((location) => location === root || location.startsWith(`${root}/`));

/** Positive control: the same search reaches the canary when it is inside the root. */
async function controlFinds(tools: ReturnType<typeof createHarness>, canary: string) {
  await buildTree(ws.allowed, { "control/c.txt": `x\n${canary.toLowerCase()}\n` });
  const value = await tools.call(
    "search_files",
    search(path.join(ws.allowed, "control"), canary, { ignore_case: true }),
  );
  expect(expectResult(value).matches).toEqual([
    { path: path.join(ws.allowed, "control/c.txt"), line: 2, text: canary.toLowerCase() },
  ]);
}

describe("search_files", () => {
  it("returns path, line number and line text for each match, in name order, parsing with core's schema", async () => {
    await buildTree(ws.allowed, {
      "b.txt": "one\nTODO two\r\nthree TODO\n",
      "a/deep/c.md": "TODO deep",
      "a/x.txt": "nothing",
    });
    const value = await createHarness(ws).call("search_files", search(ws.allowed, "TODO"));
    expect(SearchFilesToolResultSchema.parse(value)).toEqual(value);
    expect(value.enforcement).toEqual({ fs_read: "interceptor", fs_write: "interceptor" });
    expect(value.result).toEqual({
      path: ws.allowed,
      matches: [
        { path: path.join(ws.allowed, "a/deep/c.md"), line: 1, text: "TODO deep" },
        { path: path.join(ws.allowed, "b.txt"), line: 2, text: "TODO two" },
        { path: path.join(ws.allowed, "b.txt"), line: 3, text: "three TODO" },
      ],
      files_searched: 5, // with ok.txt and blocked/key.txt: nothing is blocked here
      files_skipped: 0,
      truncated: false,
    });
  });

  it("matches literally (no pattern language), optionally without case, and filters names with include", async () => {
    await buildTree(ws.allowed, { "r.ts": "a.*b\naxxb\nA.*B\n", "r.md": "a.*b\n" });
    const tools = createHarness(ws);
    const literal = await tools.call(
      "search_files",
      search(ws.allowed, "a.*b", { include: "*.ts" }),
    );
    expect(expectResult(literal).matches.map((m: { line: number }) => m.line)).toEqual([1]);
    const folded = await tools.call(
      "search_files",
      search(ws.allowed, "a.*b", { include: "*.ts", ignore_case: true }),
    );
    expect(expectResult(folded).matches.map((m: { line: number }) => m.line)).toEqual([1, 3]);
  });

  it("caps matches and says so; exactly the cap is not truncated", async () => {
    await buildTree(ws.allowed, { "m.txt": "hit\nhit\nhit\n" });
    const tools = createHarness(ws);
    const capped = expectResult(
      await tools.call("search_files", search(ws.allowed, "hit", { max_results: 2 })),
    );
    expect(capped.matches).toHaveLength(2);
    expect(capped.truncated).toBe(true);
    const exact = expectResult(
      await tools.call("search_files", search(ws.allowed, "hit", { max_results: 3 })),
    );
    expect(exact).toMatchObject({ truncated: false });
    expect(exact.matches).toHaveLength(3);
  });

  it("skips binary files and files over maxFileSize, counting them, never searching them", async () => {
    await buildTree(ws.allowed, {
      "bin.dat": Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01]),
      "big.txt": `needle${"x".repeat(2000)}`,
      "small.txt": "needle",
    });
    const result = expectResult(
      await createHarness(ws, { config: { maxFileSize: 1024 } }).call(
        "search_files",
        search(ws.allowed, "needle"),
      ),
    );
    expect(result.matches).toEqual([
      { path: path.join(ws.allowed, "small.txt"), line: 1, text: "needle" },
    ]);
    expect(result.files_skipped).toBe(2);
  });

  it("a file is refused as the search root: not a directory", async () => {
    const value = await createHarness(ws).call(
      "search_files",
      search(path.join(ws.allowed, "ok.txt"), "OK"),
    );
    expectDenied(value, "FS_NOT_REGULAR");
  });
});

describe("attack catalogue, fs entries, through search_files", () => {
  it("A02: `..` and absolute paths outside the root are refused, nothing opened there", async () => {
    await buildTree(ws.allowed, { "sub/.keep": "" });
    const tools = createHarness(ws);
    for (const target of [
      path.join(ws.allowed, ".."),
      `${ws.allowed}/sub/../../outside`,
      ws.outside,
    ]) {
      expectDenied(
        await tools.call("search_files", search(target, "CANARY")),
        "FS_OUTSIDE_ALLOWED",
      );
    }
    expect(openedUnder(ws.outside)).toEqual([]);
    await controlFinds(tools, "CANARY-OUT");
  });

  it("A04: a relative path without a base directory is refused, not resolved against the host cwd", async () => {
    const cwd = process.cwd();
    process.chdir(ws.outside);
    try {
      expectDenied(
        await createHarness(ws).call("search_files", search(".", "CANARY")),
        "FS_NO_BASE_DIR",
      );
    } finally {
      process.chdir(cwd);
    }
    // positive control: with a base directory inside $A, "." is $A
    const based = createHarness(ws, { config: { baseDir: ws.allowed } });
    expect(expectResult(await based.call("search_files", search(".", "OK"))).matches).toHaveLength(
      1,
    );
  });

  it("A06, A10: links out of the root, as the root or inside the tree, are refused or skipped unopened", async () => {
    await buildTree(ws.allowed, {
      "tree/dirlink": { link: ws.outside },
      "tree/filelink": { link: path.join(ws.outside, "secret.txt") },
      "tree/dang": { link: path.join(ws.outside, "notyet.txt") },
      "tree/in.txt": "CANARY-OUT inside",
    });
    for (const followSymlinks of [false, true]) {
      const tools = createHarness(ws, { config: { followSymlinks } });
      expectDenied(
        await tools.call("search_files", search(path.join(ws.allowed, "tree/dirlink"), "CANARY")),
        "FS_SYMLINK_ESCAPE",
      );
      const walked = await tools.call(
        "search_files",
        search(path.join(ws.allowed, "tree"), "CANARY-OUT"),
      );
      // positive control in the same call: the file inside the root is found
      expect(walked.result.matches).toEqual([
        { path: path.join(ws.allowed, "tree/in.txt"), line: 1, text: "CANARY-OUT inside" },
      ]);
      expectNoCanary({ ...walked, result: { ...walked.result, matches: [] } });
      expect(JSON.stringify(walked)).not.toContain(ws.outside);
    }
    expect(openedUnder(ws.outside)).toEqual([]);
  });

  it("A08: `..` after a link is removed as text first, so the search is of $A (pinned: the decoy, never the outside)", async () => {
    await buildTree(ws.outside, { "inner/.keep": "" });
    await buildTree(ws.allowed, {
      link: { link: path.join(ws.outside, "inner") },
      "secret.txt": "DECOY-IN CANARY",
    });
    const value = await createHarness(ws).call(
      "search_files",
      search(`${ws.allowed}/link/..`, "DECOY"),
    );
    const result = expectResult(value);
    expect(result.path).toBe(ws.allowed);
    expect(result.matches).toEqual([
      { path: path.join(ws.allowed, "secret.txt"), line: 1, text: "DECOY-IN CANARY" },
    ]);
    expect(openedUnder(ws.outside)).toEqual([]);
  });

  it("A12, A14: blocked entries are left out and never opened; a blocked root is refused on every spelling", async () => {
    await buildTree(ws.blocked, { "sub/k.txt": "CANARY-BLK" });
    await buildTree(ws.allowed, {
      "private/key.txt": "CANARY-BLK",
      "open.txt": "CANARY-BLK is only a word here",
    });
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
      path.join(ws.allowed, "PRIVATE/..", "private"),
    ]) {
      expectDenied(await tools.call("search_files", search(target, "CANARY")), "FS_BLOCKED");
    }
    const walked = await tools.call("search_files", search(ws.allowed, "CANARY-BLK"));
    // positive control: the unblocked file with the same text is found
    expect(walked.result.matches.map((m: { path: string }) => m.path)).toEqual([
      path.join(ws.allowed, "open.txt"),
    ]);
    expect(openedUnder(ws.blocked)).toEqual([]);
    expect(openedUnder(path.join(ws.allowed, "private"))).toEqual([]);
  });

  it("A16: a root reached through a link is searched; its blocked part is not, under either spelling", async () => {
    await buildTree(ws.root, {
      "real/tree/ok.txt": "needle",
      "real/tree/blocked/key.txt": "needle CANARY-BLK",
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
    // The root itself must not end in a link (followSymlinks false), as for list_directory.
    for (const root of [path.join(alias, "tree"), path.join(ws.root, "real/tree")]) {
      const value = await tools.call("search_files", search(root, "needle"));
      expect(
        expectResult(value).matches.map((m: { path: string }) => path.basename(m.path)),
      ).toEqual(["ok.txt"]);
      expectNoCanary(value);
    }
    expect(openedUnder(path.join(ws.root, "real/tree/blocked"))).toEqual([]);
  });

  it("A22: the host's descriptors are refused as roots and skipped as links in the tree", async () => {
    const fd = openSync(path.join(ws.outside, "secret.txt"), "r");
    try {
      await buildTree(ws.allowed, { fdlink: { link: `/proc/self/fd/${fd}` } });
      const tools = createHarness(ws, {
        policy: createFileConfigPolicy(),
        config: { followSymlinks: true },
      });
      for (const target of ["/proc/self/fd", "/dev/fd", `/proc/self/fd/${fd}`]) {
        const value = await tools.call("search_files", search(target, "CANARY"));
        expect(value.denied, target).toBe(true);
        expectNoCanary(value);
      }
      const walked = await tools.call("search_files", search(ws.allowed, "CANARY-OUT"));
      expect(expectResult(walked).matches).toEqual([]);
      expect(openedUnder(ws.outside)).toEqual([]);
    } finally {
      closeSync(fd);
    }
  });

  it("A24: NUL and control characters are an invalid path", async () => {
    const tools = createHarness(ws);
    for (const target of [`${ws.allowed}\u0000/../outside`, `${ws.allowed}/ok\u0001`]) {
      expectDenied(await tools.call("search_files", search(target, "CANARY")), "FS_INVALID_PATH");
    }
    expect(opened).toEqual([]);
  });

  it("A26: a FIFO in the tree is skipped without blocking; a FIFO root is refused", async () => {
    execFileSync("mkfifo", [path.join(ws.allowed, "pipe")]);
    const tools = createHarness(ws);
    const walked = await tools.call("search_files", search(ws.allowed, "OK"));
    expect(expectResult(walked).matches).toEqual([
      { path: path.join(ws.allowed, "ok.txt"), line: 1, text: "OK" },
    ]);
    expectDenied(
      await tools.call("search_files", search(path.join(ws.allowed, "pipe"), "x")),
      "FS_NOT_REGULAR",
    );
  });

  it("A96: entries, bytes and depth are bounded; a link loop ends; truncation is flagged", async () => {
    const many: Record<string, string> = {};
    for (let index = 0; index < 50; index++)
      many[`many/f${String(index).padStart(2, "0")}.txt`] = "hit";
    await buildTree(ws.allowed, {
      ...many,
      "loop/self": { link: path.join(ws.allowed, "loop") },
      "loop/x.txt": "hit",
    });
    const entries = createHarness(ws, { config: { maxListEntries: 2 } });
    const byEntries = expectResult(
      await entries.call("search_files", search(path.join(ws.allowed, "many"), "hit")),
    );
    expect(byEntries.truncated).toBe(true);
    expect(byEntries.matches.length).toBeLessThanOrEqual(20);
    const bytes = createHarness(ws, { config: { maxScanSize: 30 } });
    const byBytes = expectResult(
      await bytes.call("search_files", search(path.join(ws.allowed, "many"), "hit")),
    );
    expect(byBytes).toMatchObject({ truncated: true, files_searched: 10 });
    const loop = createHarness(ws, { config: { followSymlinks: true } });
    const looped = expectResult(
      await loop.call("search_files", search(path.join(ws.allowed, "loop"), "hit")),
    );
    expect(looped.matches).toEqual([
      { path: path.join(ws.allowed, "loop/x.txt"), line: 1, text: "hit" },
    ]);
  });
});

function createFileConfigPolicy() {
  return { blocked: ["/proc", "/dev"], writeBlocked: [] };
}
