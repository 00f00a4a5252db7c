/**
 * A JS string as a "byte string": one character per byte of its UTF-8 encoding, so
 * that GNU's byte-oriented quoting and latin1 output reproduce the original bytes.
 */
export function toByteString(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII fast path
  return /^[\x00-\x7f]*$/.test(text) ? text : Buffer.from(text, "utf8").toString("latin1");
}
