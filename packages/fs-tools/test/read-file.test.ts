import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createHarness, expectDenied, expectResult } from "./helpers/harness.js";
import { makeFifo } from "./helpers/special-files.js";
import { buildTree, useWorkspace } from "./helpers/workspace.js";

const ws = useWorkspace();

const read = (args: Record<string, unknown>, config = {}) =>
  createHarness(ws, { config }).call("read_file", args);

describe("read_file: whole files and encodings", () => {
  it("reads UTF-8 text whole", async () => {
    await buildTree(ws.allowed, { "t.txt": "héllo\nwörld\n" });
    const result = expectResult(await read({ path: path.join(ws.allowed, "t.txt") }));
    expect(result).toEqual({
      path: path.join(ws.allowed, "t.txt"),
      size: Buffer.byteLength("héllo\nwörld\n"),
      encoding: "utf-8",
      content: "héllo\nwörld\n",
      truncated: false,
      binary: false,
    });
  });

  it("strips a UTF-8 byte order mark", async () => {
    await buildTree(ws.allowed, { "bom.txt": Buffer.from("\ufeffabc", "utf8") });
    const result = expectResult(await read({ path: path.join(ws.allowed, "bom.txt") }));
    expect(result).toMatchObject({ encoding: "utf-8", content: "abc", size: 6 });
  });

  it("decodes UTF-16 LE and BE by their byte order marks", async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hi ✓\n", "utf16le")]);
    const be = Buffer.from(le.subarray(2)).swap16();
    await buildTree(ws.allowed, {
      "le.txt": le,
      "be.txt": Buffer.concat([Buffer.from([0xfe, 0xff]), be]),
    });
    const first = expectResult(await read({ path: path.join(ws.allowed, "le.txt") }));
    expect(first).toMatchObject({ encoding: "utf-16le", content: "hi ✓\n", binary: false });
    const second = expectResult(await read({ path: path.join(ws.allowed, "be.txt") }));
    expect(second).toMatchObject({ encoding: "utf-16be", content: "hi ✓\n", binary: false });
  });

  it("falls back to Latin-1 for text that is not UTF-8", async () => {
    await buildTree(ws.allowed, { "l1.txt": Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    const result = expectResult(await read({ path: path.join(ws.allowed, "l1.txt") }));
    expect(result).toMatchObject({ encoding: "latin1", content: "café\n" });
  });

  it("reports a binary file without its content", async () => {
    await buildTree(ws.allowed, { "b.bin": Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]) });
    const result = expectResult(await read({ path: path.join(ws.allowed, "b.bin") }));
    expect(result).toMatchObject({ encoding: "binary", binary: true, content: "", size: 8 });
  });

  it("refuses a file over maxFileSize, suggesting a range, and reads one at the limit", async () => {
    await buildTree(ws.allowed, { "big.txt": "x".repeat(101), "fit.txt": "y".repeat(100) });
    const value = await read({ path: path.join(ws.allowed, "big.txt") }, { maxFileSize: 100 });
    expectDenied(value, "FS_TOO_LARGE");
    expect(value.denials?.[0]?.reason).toContain('"range"');
    expect(value.denials?.[0]?.reason).not.toContain("xxx");
    const fit = await read({ path: path.join(ws.allowed, "fit.txt") }, { maxFileSize: 100 });
    expect(expectResult(fit).content).toBe("y".repeat(100));
  });

  it("refuses a directory and a FIFO as not regular files, without blocking", async () => {
    makeFifo(path.join(ws.allowed, "pipe"));
    expectDenied(await read({ path: path.join(ws.allowed, "blocked") }), "FS_NOT_REGULAR");
    expectDenied(await read({ path: path.join(ws.allowed, "pipe") }), "FS_NOT_REGULAR");
  });
});

describe("read_file: ranges", () => {
  const lines = Array.from({ length: 10 }, (_, index) => `line${index + 1}`).join("\n");

  it("returns lines start..end inclusive, 1-based", async () => {
    await buildTree(ws.allowed, { "l.txt": `${lines}\n` });
    const value = await read({
      path: path.join(ws.allowed, "l.txt"),
      range: { unit: "lines", start: 2, end: 4 },
    });
    expect(expectResult(value)).toMatchObject({
      content: "line2\nline3\nline4\n",
      range: { unit: "lines", start: 2, end: 4 },
      truncated: false,
    });
  });

  it("ends a line range at the last line, with or without a final newline", async () => {
    await buildTree(ws.allowed, { "l.txt": lines });
    const value = await read({
      path: path.join(ws.allowed, "l.txt"),
      range: { unit: "lines", start: 9, end: 50 },
    });
    expect(expectResult(value)).toMatchObject({
      content: "line9\nline10",
      range: { start: 9, end: 10 },
    });
    const past = await read({
      path: path.join(ws.allowed, "l.txt"),
      range: { unit: "lines", start: 11, end: 12 },
    });
    expect(expectResult(past)).toMatchObject({ content: "", range: { start: 11, end: 10 } });
  });

  it("stops a line range at maxFileSize bytes of whole lines, with truncated", async () => {
    await buildTree(ws.allowed, { "l.txt": `${lines}\n` });
    const value = await read(
      { path: path.join(ws.allowed, "l.txt"), range: { unit: "lines", start: 1, end: 10 } },
      { maxFileSize: 14 },
    );
    expect(expectResult(value)).toMatchObject({
      content: "line1\nline2\n",
      range: { start: 1, end: 2 },
      truncated: true,
    });
  });

  it("reads line ranges of a file larger than maxFileSize", async () => {
    await buildTree(ws.allowed, { "l.txt": `${lines}\n` });
    const value = await read(
      { path: path.join(ws.allowed, "l.txt"), range: { unit: "lines", start: 10, end: 10 } },
      { maxFileSize: 20 },
    );
    expect(expectResult(value)).toMatchObject({ content: "line10\n", truncated: false });
  });

  it("counts UTF-16 lines on code units", async () => {
    const text = "a\u0a00b\nsecond\nthird";
    await buildTree(ws.allowed, {
      "u.txt": Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]),
    });
    const value = await read({
      path: path.join(ws.allowed, "u.txt"),
      range: { unit: "lines", start: 2, end: 2 },
    });
    expect(expectResult(value)).toMatchObject({ encoding: "utf-16le", content: "second\n" });
  });

  it("returns a byte range, exclusive end, reported as returned", async () => {
    await buildTree(ws.allowed, { "b.txt": "0123456789" });
    const value = await read({
      path: path.join(ws.allowed, "b.txt"),
      range: { unit: "bytes", start: 3, end: 6 },
    });
    expect(expectResult(value)).toMatchObject({
      content: "345",
      range: { unit: "bytes", start: 3, end: 6 },
    });
    const tail = await read({
      path: path.join(ws.allowed, "b.txt"),
      range: { unit: "bytes", start: 8, end: 100 },
    });
    expect(expectResult(tail)).toMatchObject({ content: "89", range: { start: 8, end: 10 } });
  });

  it("keeps UTF-8 for a byte range that cuts a character", async () => {
    await buildTree(ws.allowed, { "u.txt": "aé€b" });
    const value = await read({
      path: path.join(ws.allowed, "u.txt"),
      range: { unit: "bytes", start: 2, end: 6 },
    });
    expect(expectResult(value)).toMatchObject({ encoding: "utf-8", content: "\ufffd€" });
  });

  it("refuses a byte range longer than maxFileSize", async () => {
    await buildTree(ws.allowed, { "b.txt": "0123456789" });
    const value = await read(
      { path: path.join(ws.allowed, "b.txt"), range: { unit: "bytes", start: 0, end: 10 } },
      { maxFileSize: 5 },
    );
    expectDenied(value, "FS_TOO_LARGE");
  });

  it("rejects invalid ranges as invalid arguments, not clamped", async () => {
    await writeFile(path.join(ws.allowed, "b.txt"), "x");
    const target = path.join(ws.allowed, "b.txt");
    for (const range of [
      { unit: "lines", start: 0, end: 1 },
      { unit: "bytes", start: -1, end: 1 },
      { unit: "bytes", start: 5, end: 1 },
      { unit: "lines", start: 1.5, end: 2 },
      { unit: "pages", start: 1, end: 2 },
    ]) {
      await expect(read({ path: target, range })).rejects.toMatchObject({
        code: "INVALID_ARGUMENTS",
      });
    }
  });
});
