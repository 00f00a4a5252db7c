/**
 * What of one output stream reaches the model: at most `maxBytes` of UTF-8, keeping the
 * head and the tail (half each) and cutting the middle between code points.
 */

/** The default cap per stream of the text a model receives (16 KiB: head 8 KiB, tail 8 KiB). */
export const DEFAULT_MODEL_OUTPUT_BYTES = 16 * 1024;

export interface CappedOutput {
  /** The first part kept. */
  readonly head: string;
  /** The last part kept ("" when nothing was cut). */
  readonly tail: string;
  /** UTF-8 bytes left out between `head` and `tail` (0: `head` is the whole text). */
  readonly cutBytes: number;
}

/** The longest prefix of `bytes` of at most `limit` bytes that ends on a code point boundary. */
function headEnd(bytes: Buffer, limit: number): number {
  let end = Math.min(limit, bytes.length);
  while (end > 0 && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return end;
}

/** The start of the shortest suffix of at most `limit` bytes beginning on a code point. */
function tailStart(bytes: Buffer, limit: number): number {
  let start = Math.max(0, bytes.length - limit);
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return start;
}

export function capForModel(text: string, maxBytes: number): CappedOutput {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return { head: text, tail: "", cutBytes: 0 };
  const half = Math.floor(maxBytes / 2);
  const end = headEnd(bytes, half);
  const start = tailStart(bytes, maxBytes - half);
  return {
    head: bytes.subarray(0, end).toString("utf8"),
    tail: bytes.subarray(start).toString("utf8"),
    cutBytes: start - end,
  };
}

/** The marker the model reads where output was cut. */
export function cutMarker(stream: string, cutBytes: number): string {
  return `\n[... ${cutBytes} bytes of ${stream} cut here by the model output cap ...]\n`;
}

/** The capped text as the model reads it: head, the marker when cut, tail. */
export function cappedText(stream: string, capped: CappedOutput): string {
  return capped.cutBytes === 0
    ? capped.head
    : `${capped.head}${cutMarker(stream, capped.cutBytes)}${capped.tail}`;
}
