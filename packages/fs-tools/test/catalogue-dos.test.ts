// Attack catalogue A96, the fs-tool parts: huge and pathological inputs. Memory and time
// stay bounded: entries are streamed and reading stops at the maximum; file reads go
// through a reader bounded in bytes; over-long paths and link loops are denied.
import { spawn } from "node:child_process";
import { mkdir, rm, symlink, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createHarness, expectDenied, expectResult } from "./helpers/harness.js";
import { buildTree, useWorkspace } from "./helpers/workspace.js";

const ws = useWorkspace();

/** `count` empty entries in `directory` (links to one file: cheap to create and remove). */
async function fillDirectory(directory: string, count: number) {
  await mkdir(directory, { recursive: true });
  for (let start = 0; start < count; start += 1000) {
    const batch = [];
    for (let index = start; index < Math.min(count, start + 1000); index++) {
      batch.push(symlink("x", path.join(directory, `entry-${index}`)));
    }
    await Promise.all(batch);
  }
}

describe("attack catalogue A96: huge or pathological inputs", () => {
  it("A96: a huge directory is streamed — the listing stops at the limit and at the scan bound", async () => {
    const big = path.join(ws.allowed, "big");
    await fillDirectory(big, 20_000);
    const tools = createHarness(ws, { config: { maxListEntries: 100 } });
    const started = performance.now();
    const first = expectResult(await tools.call("list_directory", { path: big, limit: 10 }));
    expect(first.entries).toHaveLength(10);
    expect(first.truncated).toBe(true);
    // a pattern that matches nothing stops after examining 10 × maxListEntries names
    const none = expectResult(await tools.call("list_directory", { path: big, pattern: "zzz*" }));
    expect(none).toMatchObject({ entries: [], truncated: true });
    expect(performance.now() - started).toBeLessThan(5000);
    expectDenied(await tools.call("read_file", { path: big }), "FS_NOT_REGULAR");
    expect(expectResult(await tools.call("file_info", { path: big })).type).toBe("directory");
  }, 60_000);

  it.runIf(process.env.BRIDLE_SLOW_TESTS === "1")(
    "A96: a directory of 1,000,000 entries (runs with BRIDLE_SLOW_TESTS=1; creating it takes ~30 s, so the default suite uses 20,000 with a smaller bound)",
    async () => {
      const big = path.join(ws.allowed, "huge");
      try {
        await fillDirectory(big, 1_000_000);
        const tools = createHarness(ws);
        const before = process.memoryUsage().heapUsed;
        const started = performance.now();
        const none = await tools.call("list_directory", { path: big, pattern: "none*" });
        expect(expectResult(none)).toMatchObject({ entries: [], truncated: true });
        const first = await tools.call("list_directory", { path: big, limit: 10 });
        expect(expectResult(first)).toMatchObject({ truncated: true });
        expect(performance.now() - started).toBeLessThan(10_000);
        expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
      } finally {
        // removing a million entries outlasts the hook timeout, so it happens here
        await rm(big, { recursive: true, force: true });
      }
    },
    300_000,
  );

  it("A96: a sparse 10 GB file is refused whole, described, and read by range without scanning it", async () => {
    const sparse = path.join(ws.allowed, "sparse.bin");
    await writeFile(sparse, "");
    await truncate(sparse, 10 * 1024 ** 3);
    const tools = createHarness(ws);
    const started = performance.now();
    expectDenied(await tools.call("read_file", { path: sparse }), "FS_TOO_LARGE");
    expect(expectResult(await tools.call("file_info", { path: sparse })).size).toBe(10 * 1024 ** 3);
    expectDenied(await tools.call("list_directory", { path: sparse }), "FS_NOT_REGULAR");
    const lines = expectResult(
      await tools.call("read_file", { path: sparse, range: { unit: "lines", start: 1, end: 5 } }),
    );
    expect(lines).toMatchObject({ binary: true, content: "" });
    const tail = 10 * 1024 ** 3 - 100;
    const bytes = expectResult(
      await tools.call("read_file", {
        path: sparse,
        range: { unit: "bytes", start: tail, end: tail + 100 },
      }),
    );
    expect(bytes).toMatchObject({
      binary: true,
      content: "",
      range: { start: tail, end: tail + 100 },
    });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("A96: a line far into a huge text file is refused after the scan bound, not searched for ever", async () => {
    const text = path.join(ws.allowed, "long.txt");
    await writeFile(text, "x".repeat(200_000));
    const tools = createHarness(ws, { config: { maxScanSize: 64 * 1024, maxFileSize: 1024 } });
    const value = await tools.call("read_file", {
      path: text,
      range: { unit: "lines", start: 2, end: 3 },
    });
    expectDenied(value, "FS_TOO_LARGE");
    expect(value.denials?.[0]?.reason).toContain("byte range");
    const first = await tools.call("read_file", {
      path: text,
      range: { unit: "lines", start: 1, end: 1 },
    });
    expectDenied(first, "FS_TOO_LARGE");
  });

  it("A96: a file grown by a background writer is read through a bounded reader", async () => {
    const growing = path.join(ws.allowed, "grow.log");
    await writeFile(growing, "start\n");
    const writer = spawn(
      process.execPath,
      [
        "-e",
        `const fs=require("fs");const fd=fs.openSync(${JSON.stringify(growing)},"a");const line="y".repeat(1023)+"\\n";const stop=Date.now()+30000;while(Date.now()<stop)fs.writeSync(fd,line);`,
      ],
      { stdio: "ignore" },
    );
    const maxFileSize = 256 * 1024;
    const tools = createHarness(ws, { config: { maxFileSize } });
    const codes = new Set<string>();
    try {
      for (let call = 0; call < 200; call++) {
        const value = await tools.call("read_file", { path: growing });
        if (value.result) {
          expect(value.result.content.length).toBeLessThanOrEqual(maxFileSize);
          expect(value.result.content.length).toBeLessThanOrEqual(value.result.size);
          codes.add(value.result.truncated ? "truncated" : "whole");
        } else codes.add(value.denials?.[0]?.code ?? "?");
      }
    } finally {
      writer.kill("SIGKILL");
    }
    expect([...codes].every((code) => ["truncated", "whole", "FS_TOO_LARGE"].includes(code))).toBe(
      true,
    );
  }, 60_000);

  it("A96: over-long paths are denied (FS_PATH_TOO_LONG), and paths past the argument limit are invalid arguments", async () => {
    const tools = createHarness(ws);
    const deep = `${ws.allowed}/${"d/".repeat(2500)}f.txt`;
    expect(deep.length).toBeGreaterThan(5000);
    const longName = path.join(ws.allowed, "n".repeat(300));
    for (const target of [deep, longName]) {
      expectDenied(await tools.call("read_file", { path: target }), "FS_PATH_TOO_LONG");
      expectDenied(await tools.call("file_info", { path: target }), "FS_PATH_TOO_LONG");
      expectDenied(await tools.call("list_directory", { path: target }), "FS_PATH_TOO_LONG");
      expectDenied(
        await tools.call("write_file", { path: target, content: "x" }),
        "FS_PATH_TOO_LONG",
      );
    }
    await expect(tools.call("read_file", { path: `/${"a".repeat(40_000)}` })).rejects.toMatchObject(
      {
        code: "INVALID_ARGUMENTS",
      },
    );
  });

  it("A96: a symlink loop is denied (FS_LINK_LOOP) by every tool", async () => {
    await buildTree(ws.allowed, {
      loop1: { link: "loop2" },
      loop2: { link: "loop1" },
      self: { link: "self" },
    });
    const tools = createHarness(ws);
    for (const name of ["loop1", "self"]) {
      const target = path.join(ws.allowed, name);
      for (const [tool, extra] of [
        ["read_file", {}],
        ["file_info", {}],
        ["list_directory", {}],
        ["write_file", { content: "x" }],
      ] as const) {
        expectDenied(await tools.call(tool, { path: target, ...extra }), "FS_LINK_LOOP");
      }
      expectDenied(await tools.call("read_file", { path: `${target}/below.txt` }), "FS_LINK_LOOP");
    }
  });
});
