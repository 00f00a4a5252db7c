import type { ByteSource } from "../io/byte-source.js";
import type { OutputBuffer } from "../io/output-buffer.js";

const NEWLINE = 0x0a;

/**
 * Everything but the last `count` bytes: only those `count` bytes are ever held back
 * (memory bounded by the count, as in GNU).
 */
export async function elideTailBytes(
  source: ByteSource,
  out: OutputBuffer,
  count: bigint,
): Promise<void> {
  const held: Uint8Array[] = [];
  let heldBytes = 0n;
  for (let chunk = await source.read(); chunk !== null; chunk = await source.read()) {
    held.push(chunk);
    heldBytes += BigInt(chunk.length);
    while (heldBytes > count) {
      const first = held[0] as Uint8Array;
      const excess = heldBytes - count;
      if (BigInt(first.length) <= excess) {
        held.shift();
        heldBytes -= BigInt(first.length);
        await out.write(first);
      } else {
        const cut = Number(excess);
        await out.write(first.subarray(0, cut));
        held[0] = first.subarray(cut);
        heldBytes -= excess;
      }
    }
  }
}

function countNewlines(chunk: Uint8Array): number {
  let total = 0;
  for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) total += 1;
  return total;
}

/** Bytes up to and including the `lines`-th newline of `chunk` (lines ≥ 1, present). */
function cutAfterLines(chunk: Uint8Array, lines: number): number {
  let at = -1;
  for (let seen = 0; seen < lines; seen += 1) at = chunk.indexOf(NEWLINE, at + 1);
  return at + 1;
}

/**
 * Everything but the last `count` lines (an unterminated last line counts as one):
 * held back are only the chunks covering the last `count` newlines.
 */
export async function elideTailLines(
  source: ByteSource,
  out: OutputBuffer,
  count: bigint,
): Promise<void> {
  if (count === 0n) {
    for (let chunk = await source.read(); chunk !== null; chunk = await source.read())
      await out.write(chunk);
    return;
  }
  const held: { bytes: Uint8Array; newlines: number }[] = [];
  let heldNewlines = 0n;
  let lastByte = NEWLINE;
  const release = async (lines: bigint) => {
    let left = lines;
    while (left > 0n) {
      const first = held[0] as { bytes: Uint8Array; newlines: number };
      if (BigInt(first.newlines) <= left) {
        held.shift();
        left -= BigInt(first.newlines);
        heldNewlines -= BigInt(first.newlines);
        await out.write(first.bytes);
        continue;
      }
      const cut = cutAfterLines(first.bytes, Number(left));
      await out.write(first.bytes.subarray(0, cut));
      held[0] = { bytes: first.bytes.subarray(cut), newlines: first.newlines - Number(left) };
      heldNewlines -= left;
      left = 0n;
    }
  };
  for (let chunk = await source.read(); chunk !== null; chunk = await source.read()) {
    const newlines = countNewlines(chunk);
    held.push({ bytes: chunk, newlines });
    heldNewlines += BigInt(newlines);
    lastByte = chunk[chunk.length - 1] as number;
    if (heldNewlines > count) await release(heldNewlines - count);
  }
  if (lastByte !== NEWLINE && heldNewlines === count) {
    // The unterminated last line is one of the `count`: one more complete line goes out.
    await release(1n);
  }
}
