import { isAscii, isUtf8 } from "node:buffer";

/** The encodings `read_file` reports (core's `ReadFileResult.encoding`, less `binary`). */
export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be" | "latin1";

export interface ByteOrderMark {
  readonly encoding: TextEncoding;
  readonly length: number;
}

/** The byte order mark at the start of a file, if any (UTF-8, UTF-16 LE or BE). */
export function detectBom(head: Uint8Array): ByteOrderMark | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
    return { encoding: "utf-8", length: 3 };
  }
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: "utf-16le", length: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: "utf-16be", length: 2 };
  return undefined;
}

const SAMPLE = 8192;

/**
 * Whether bytes look like binary data rather than text: a NUL in the first 8 KiB, or
 * more than one in ten of those bytes a C0 control other than tab, newline, carriage
 * return, form feed, vertical tab, backspace and escape.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const length = Math.min(bytes.length, SAMPLE);
  let controls = 0;
  for (let index = 0; index < length; index++) {
    const byte = bytes[index] ?? 0;
    if (byte === 0) return true;
    if (byte < 0x20 && !(byte >= 0x08 && byte <= 0x0d) && byte !== 0x1b) controls++;
  }
  return controls * 10 > length;
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/**
 * UTF-8 validity of a slice cut from a larger file: up to three continuation bytes at
 * the start, and an incomplete sequence at the end, are allowed (they belong to
 * characters the slice cuts through).
 */
export function isUtf8Slice(bytes: Buffer): boolean {
  let start = 0;
  while (start < 3 && isContinuation(bytes[start])) start++;
  let end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= start; back++) {
    const byte = bytes[end - back] ?? 0;
    if (isContinuation(byte)) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (needed > back) end -= back;
    break;
  }
  return isUtf8(bytes.subarray(start, end));
}

/**
 * The encoding of text bytes: the byte order mark when there is one; else binary when
 * the bytes look binary; else UTF-8 when they are valid UTF-8 (`slice`: cut from a larger
 * file); else Latin-1, which decodes any byte.
 */
export function classifyText(
  bytes: Buffer,
  bom: ByteOrderMark | undefined,
  slice: boolean,
): TextEncoding | "binary" {
  if (bom !== undefined) return bom.encoding;
  if (looksBinary(bytes)) return "binary";
  if (isAscii(bytes)) return "utf-8";
  const valid = slice ? isUtf8Slice(bytes) : isUtf8(bytes);
  return valid ? "utf-8" : "latin1";
}

/**
 * Decodes bytes (byte order mark already removed); cut characters become U+FFFD. UTF-8
 * that is all ASCII is decoded as Latin-1, which gives the same string (each byte is its
 * own character below 0x80) about twice as fast as Node's UTF-8 decoder.
 */
export function decodeText(bytes: Buffer, encoding: TextEncoding): string {
  switch (encoding) {
    case "utf-8":
      return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
    case "latin1":
      return bytes.toString("latin1");
    case "utf-16le":
      return bytes.toString("utf16le");
    case "utf-16be": {
      const even = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
      return even.swap16().toString("utf16le");
    }
  }
}
