import type { ByteSource } from "../io/byte-source.js";
import type { OutputBuffer } from "../io/output-buffer.js";

const NEWLINE = 0x0a;

/** The first `count` bytes. */
export async function headBytes(
  source: ByteSource,
  out: OutputBuffer,
  count: bigint,
): Promise<void> {
  let left = count;
  while (left > 0n) {
    const chunk = await source.read();
    if (chunk === null) return;
    if (BigInt(chunk.length) >= left) {
      await out.write(chunk.subarray(0, Number(left)));
      return;
    }
    await out.write(chunk);
    left -= BigInt(chunk.length);
  }
}

/** The first `count` lines (the last one may lack its newline). */
export async function headLines(
  source: ByteSource,
  out: OutputBuffer,
  count: bigint,
): Promise<void> {
  let left = count;
  while (left > 0n) {
    const chunk = await source.read();
    if (chunk === null) return;
    let position = 0;
    while (left > 0n) {
      const found = chunk.indexOf(NEWLINE, position);
      if (found === -1) break;
      position = found + 1;
      left -= 1n;
    }
    await out.write(left === 0n ? chunk.subarray(0, position) : chunk);
  }
}
