import type { FileHandle } from "node:fs/promises";
import { readAt } from "./read-at.js";
import { type ReadOutcome, refusal, textOutcome } from "./read-outcome.js";
import { classifyText, detectBom } from "./text-encoding.js";

/**
 * A whole file, refused when its size (of the opened descriptor) is over `maxFileSize`.
 * The read itself is bounded too: it returns at most the size the file had when checked,
 * and a file that has grown since is returned at that size with `truncated` set.
 */
export async function readWhole(
  handle: FileHandle,
  size: number,
  maxFileSize: number,
): Promise<ReadOutcome> {
  if (size > maxFileSize) {
    return refusal(
      "FS_TOO_LARGE",
      `the file is ${size} bytes, over the ${maxFileSize}-byte limit for a whole read; read part of it with "range", e.g. {"unit":"lines","start":1,"end":200} or {"unit":"bytes","start":0,"end":${maxFileSize}}`,
    );
  }
  const read = await readAt(handle, 0, size + 1, size);
  const truncated = read.length > size;
  const bytes = truncated ? read.subarray(0, size) : read;
  const bom = detectBom(bytes);
  const encoding = classifyText(bytes.subarray(bom?.length ?? 0), bom, false);
  return textOutcome(bytes.subarray(bom?.length ?? 0), encoding, truncated);
}
