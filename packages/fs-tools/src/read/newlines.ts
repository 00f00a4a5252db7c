import type { TextEncoding } from "./text-encoding.js";

/**
 * Finds line ends in chunks of a file: the offset, within `chunk`, just past each newline
 * (`\n`; a UTF-16 newline is one whole code unit, found only on code-unit boundaries).
 * Chunks must start on a code-unit boundary (even file offsets for UTF-16).
 */
export function* lineEnds(chunk: Buffer, encoding: TextEncoding): Generator<number> {
  if (encoding === "utf-16le" || encoding === "utf-16be") {
    const newlineAt = encoding === "utf-16le" ? 0 : 1;
    for (let unit = 0; unit + 1 < chunk.length; unit += 2) {
      if (chunk[unit + newlineAt] === 0x0a && chunk[unit + 1 - newlineAt] === 0) yield unit + 2;
    }
    return;
  }
  let from = 0;
  for (;;) {
    const found = chunk.indexOf(0x0a, from);
    if (found === -1) return;
    from = found + 1;
    yield from;
  }
}
