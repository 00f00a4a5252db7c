import type { FileHandle } from "node:fs/promises";
import { readAt } from "./read-at.js";
import { type ReadOutcome, refusal, textOutcome } from "./read-outcome.js";
import { classifyText, detectBom } from "./text-encoding.js";

export interface ByteRange {
  /** First byte, 0-based. */
  readonly start: number;
  /** One past the last byte (exclusive). */
  readonly end: number;
}

/**
 * Bytes `[start, end)` of a file, at most `maxFileSize` of them (a larger range is
 * refused). The encoding comes from the file's byte order mark, else from the bytes read;
 * a byte order mark inside the range is not returned, and a UTF-16 range starts on a code
 * unit. The reported range is the one actually returned (it ends early at end of file).
 */
export async function readByteRange(
  handle: FileHandle,
  range: ByteRange,
  maxFileSize: number,
): Promise<ReadOutcome> {
  if (range.end - range.start > maxFileSize) {
    return refusal(
      "FS_TOO_LARGE",
      `a byte range returns at most ${maxFileSize} bytes; ask for a range with end - start ≤ ${maxFileSize}`,
    );
  }
  const bom = detectBom(await readAt(handle, 0, 3));
  let start = Math.max(range.start, bom?.length ?? 0);
  if (bom !== undefined && bom.length === 2 && (start - bom.length) % 2 === 1) start += 1;
  const bytes =
    range.end > start ? await readAt(handle, start, range.end - start) : Buffer.alloc(0);
  const encoding = classifyText(bytes, bom, true);
  return textOutcome(bytes, encoding, false, {
    unit: "bytes",
    start,
    end: start + bytes.length,
  });
}
