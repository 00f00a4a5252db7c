import type { FileHandle } from "node:fs/promises";

/**
 * Reads up to `length` bytes at `position`, looping over short reads, stopping at end of
 * file. Never reads more than `length`, whatever the file's size was when checked. With
 * `expected` (the size the file had when checked), a short read that has filled that much
 * is taken as end of file, sparing the final empty read.
 */
export async function readAt(
  handle: FileHandle,
  position: number,
  length: number,
  expected = Number.POSITIVE_INFINITY,
): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const wanted = length - filled;
    const { bytesRead } = await handle.read(buffer, filled, wanted, position + filled);
    filled += bytesRead;
    if (bytesRead === 0 || (bytesRead < wanted && filled >= expected)) break;
  }
  return buffer.subarray(0, filled);
}
