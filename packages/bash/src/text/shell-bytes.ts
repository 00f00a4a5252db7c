/**
 * The byte model of shell text. Bash treats text as bytes; the interpreter keeps text as
 * JavaScript strings, so a byte that is not part of valid UTF-8 is carried as a lone
 * surrogate U+DC80–U+DCFF ("surrogateescape"): byte 0xE9 alone is U+DCE9. Everything
 * else is ordinary Unicode text whose bytes are its UTF-8.
 *
 * - `encodeShellText` (text → bytes) is used by every output path: escaped bytes become
 *   their byte, everything else its UTF-8.
 * - `decodeShellBytes` (bytes → text) is used wherever bytes become shell text (command
 *   substitution, `read`, `mapfile`, a sourced file): valid UTF-8 becomes characters,
 *   every other byte its escape.
 * - `shellByte` is what an escape (`\xNN`, `\NNN`) yields: ASCII as itself, 0x80–0xFF as
 *   an escaped byte; `canonicalShellText` then turns escaped bytes that form valid UTF-8
 *   (`$'\xc3\xa9'`) into the character, so the same bytes are always the same string.
 *
 * Lengths and offsets count bytes (`byteLength`, `sliceBytes`), as bash does under
 * `LC_ALL=C`, the locale the engine always runs in: `x=é; echo ${#x}` prints 2.
 */

const ESCAPE_BASE = 0xdc00;
/** A lone (unpaired) escaped byte, U+DC80–U+DCFF. */
const LONE_ESCAPE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is the fast path
const ASCII = /^[\x00-\x7f]*$/;
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text one byte stands for: ASCII as itself, 0x80–0xFF as its escape. */
export function shellByte(byte: number): string {
  const value = byte & 0xff;
  return String.fromCharCode(value < 0x80 ? value : ESCAPE_BASE + value);
}

/** True when `text` is plain ASCII (its bytes are its characters). */
export function isAsciiText(text: string): boolean {
  return ASCII.test(text);
}

/** Text to the bytes it stands for (escaped bytes as themselves, the rest as UTF-8). */
export function encodeShellText(text: string): Buffer {
  if (!LONE_ESCAPE.test(text)) return Buffer.from(text, "utf8");
  const parts: Buffer[] = [];
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) index += 1;
      continue;
    }
    if (code < 0xdc80 || code > 0xdcff) continue;
    parts.push(Buffer.from(text.slice(start, index), "utf8"), Buffer.of(code - ESCAPE_BASE));
    start = index + 1;
  }
  parts.push(Buffer.from(text.slice(start), "utf8"));
  return Buffer.concat(parts);
}

/** The length of a valid UTF-8 sequence starting at `index`, or 0 when there is none. */
function sequenceLength(bytes: Uint8Array, index: number): number {
  const lead = bytes[index] as number;
  let length: number;
  let min: number;
  if (lead >= 0xc2 && lead <= 0xdf) [length, min] = [2, 0x80];
  else if (lead >= 0xe0 && lead <= 0xef) [length, min] = [3, 0x800];
  else if (lead >= 0xf0 && lead <= 0xf4) [length, min] = [4, 0x10000];
  else return 0;
  if (index + length > bytes.length) return 0;
  let value = lead & (0xff >> (length + 1));
  for (let offset = 1; offset < length; offset += 1) {
    const next = bytes[index + offset] as number;
    if ((next & 0xc0) !== 0x80) return 0;
    value = (value << 6) | (next & 0x3f);
  }
  if (value < min || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return 0;
  return length;
}

/** Bytes to text: valid UTF-8 as characters, every other byte as its escape. */
export function decodeShellBytes(bytes: Uint8Array): string {
  let index = 0;
  while (index < bytes.length && (bytes[index] as number) < 0x80) index += 1;
  if (index === bytes.length) return Buffer.from(bytes).toString("latin1");
  try {
    return decoder.decode(bytes);
  } catch {
    // Not all valid UTF-8: decode sequence by sequence below.
  }
  let out = "";
  let start = 0;
  while (index < bytes.length) {
    const byte = bytes[index] as number;
    if (byte < 0x80) {
      index += 1;
      continue;
    }
    const length = sequenceLength(bytes, index);
    if (length > 0) {
      index += length;
      continue;
    }
    out += decoder.decode(bytes.subarray(start, index)) + shellByte(byte);
    index += 1;
    start = index;
  }
  return out + decoder.decode(bytes.subarray(start));
}

/** The one spelling of `text`'s bytes: escaped bytes that form valid UTF-8 joined. */
export function canonicalShellText(text: string): string {
  return LONE_ESCAPE.test(text) ? decodeShellBytes(encodeShellText(text)) : text;
}

/** How many bytes `text` stands for (bash's `${#x}` under `LC_ALL=C`). */
export function byteLength(text: string): number {
  return isAsciiText(text) ? text.length : encodeShellText(text).length;
}

/** `text`'s bytes from `start` to `end` (exclusive), as text (a cut character's bytes escaped). */
export function sliceBytes(text: string, start: number, end?: number): string {
  if (isAsciiText(text)) return text.slice(start, end);
  return decodeShellBytes(encodeShellText(text).subarray(start, end));
}

/**
 * `text` with one character per byte (Latin-1 code units), for pattern matching that
 * counts bytes as bash's does under LC_ALL=C (`?` is one byte). ASCII is unchanged.
 */
export function toByteChars(text: string): string {
  return isAsciiText(text) ? text : encodeShellText(text).toString("latin1");
}

/** The text that one-character-per-byte `chars` stand for (undoes `toByteChars`). */
export function fromByteChars(chars: string): string {
  return isAsciiText(chars) ? chars : decodeShellBytes(Buffer.from(chars, "latin1"));
}
