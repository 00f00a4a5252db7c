import type { FileHandle } from "node:fs/promises";
import { lineEnds } from "./newlines.js";
import { readAt } from "./read-at.js";
import { type ReadOutcome, refusal, textOutcome } from "./read-outcome.js";
import { classifyText, detectBom, looksBinary, type TextEncoding } from "./text-encoding.js";

export interface LineRange {
  /** First line, 1-based. */
  readonly start: number;
  /** Last line, inclusive. */
  readonly end: number;
}

export interface LineLimits {
  /** Most bytes returned. */
  readonly maxFileSize: number;
  /** Most bytes scanned to find the first line of the range. */
  readonly maxScanSize: number;
}

const CHUNK = 64 * 1024;

/** Byte offsets of the lines found: `[startByte, endByte)`, the last line returned. */
interface Located {
  readonly startByte: number | undefined;
  readonly endByte: number;
  readonly lastLine: number;
  readonly truncated: boolean;
  readonly scanLimited: boolean;
}

class LineScan {
  line = 1;
  startByte: number | undefined;
  endByte = 0;
  lastLine: number;
  truncated = false;
  done = false;

  constructor(
    readonly range: LineRange,
    readonly firstByte: number,
    readonly maxBytes: number,
  ) {
    this.lastLine = range.start - 1;
    if (range.start === 1) {
      this.startByte = firstByte;
      this.endByte = firstByte;
    }
  }

  /** Line `this.line` ends just before `next` (the next line's first byte). */
  lineEnded(next: number): void {
    if (this.startByte !== undefined) {
      if (next - this.startByte > this.maxBytes) {
        this.truncated = true;
        this.done = true;
        return;
      }
      this.endByte = next;
      this.lastLine = this.line;
      if (this.line >= this.range.end) {
        this.done = true;
        return;
      }
    }
    this.line += 1;
    if (this.line === this.range.start) {
      this.startByte = next;
      this.endByte = next;
    }
  }

  /** End of file at `length`: a last line without a newline. */
  ended(length: number): void {
    if (this.startByte !== undefined && length > this.endByte && this.line >= this.range.start) {
      this.lineEnded(length);
    }
    this.done = true;
  }
}

async function locate(
  handle: FileHandle,
  encoding: TextEncoding,
  first: { readonly bytes: Buffer; readonly bomLength: number },
  range: LineRange,
  limits: LineLimits,
): Promise<Located> {
  const scan = new LineScan(range, first.bomLength, limits.maxFileSize);
  let offset = 0;
  let chunk = first.bytes;
  while (!scan.done) {
    if (chunk.length === 0) {
      scan.ended(offset);
      break;
    }
    for (const end of lineEnds(chunk, encoding)) {
      if (offset + end <= first.bomLength) continue;
      scan.lineEnded(offset + end);
      if (scan.done) break;
    }
    offset += chunk.length;
    if (scan.done) break;
    if (scan.startByte === undefined && offset >= limits.maxScanSize) {
      return { startByte: undefined, endByte: 0, lastLine: 0, truncated: false, scanLimited: true };
    }
    chunk = await readAt(handle, offset, CHUNK);
  }
  return {
    startByte: scan.startByte,
    endByte: scan.endByte,
    lastLine: scan.lastLine,
    truncated: scan.truncated,
    scanLimited: false,
  };
}

/**
 * Lines `start`…`end` (1-based, inclusive) of a file, found by scanning from its start
 * (at most `maxScanSize` bytes to reach the first line), returning at most `maxFileSize`
 * bytes of whole lines: a range that would return more stops early with `truncated` and
 * the reported `end` is the last line returned. Binary files are reported, not returned.
 */
export async function readLineRange(
  handle: FileHandle,
  range: LineRange,
  limits: LineLimits,
): Promise<ReadOutcome> {
  const head = await readAt(handle, 0, CHUNK);
  const bom = detectBom(head);
  const bomLength = bom?.length ?? 0;
  if (bom === undefined && looksBinary(head)) return textOutcome(head, "binary", false);
  const scanEncoding = bom?.encoding ?? "utf-8";
  const found = await locate(handle, scanEncoding, { bytes: head, bomLength }, range, limits);
  if (found.scanLimited) {
    return refusal(
      "FS_TOO_LARGE",
      `line ${range.start} is not within the first ${limits.maxScanSize} bytes scanned for lines; read that part of the file with a byte range instead`,
    );
  }
  if (found.truncated && found.lastLine < range.start) {
    return refusal(
      "FS_TOO_LARGE",
      `line ${range.start} alone is longer than the ${limits.maxFileSize}-byte limit; read it with a byte range instead`,
    );
  }
  const start = found.startByte ?? 0;
  const bytes =
    found.startByte === undefined
      ? Buffer.alloc(0)
      : await readAt(handle, start, found.endByte - start);
  const encoding = bom?.encoding ?? classifyText(bytes, undefined, false);
  const lineRange = { unit: "lines" as const, start: range.start, end: found.lastLine };
  return textOutcome(bytes, encoding, found.truncated, lineRange);
}
