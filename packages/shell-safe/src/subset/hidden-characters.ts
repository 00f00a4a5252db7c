import { parseError } from "./refusal.js";

/**
 * Characters a human reader and bash disagree about, refused anywhere in the source
 * (quoted, unquoted or in a comment): NUL and control characters other than tab and
 * newline (CR is a word character to bash, a line break to a reader), non-ASCII
 * spaces and line separators (bash splits on none of them), format characters
 * (zero-width and bidirectional controls reorder or hide text), and lone UTF-16
 * surrogates (they cannot reach bash unchanged). One single-character class per
 * code point: no quantifiers, so no backtracking.
 */
const HIDDEN = /^[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Cs}]$/u;

function describe(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
}

export function checkHiddenCharacters(source: string): void {
  let offset = 0;
  while (offset < source.length) {
    const codePoint = source.codePointAt(offset) ?? 0;
    // Printable ASCII (most of any script) is never hidden: skip the Unicode class test.
    if (codePoint > 0x20 && codePoint < 0x7f) {
      offset += 1;
      continue;
    }
    const width = codePoint > 0xffff ? 2 : 1;
    const allowed = codePoint === 0x09 || codePoint === 0x0a || codePoint === 0x20;
    if (!allowed && (codePoint < 0x20 || HIDDEN.test(String.fromCodePoint(codePoint)))) {
      const name = describe(codePoint);
      throw parseError(
        `control or invisible character ${name}`,
        `the character ${name} is read differently by bash and by a human reader; remove it or use a plain space`,
        offset,
        offset + width,
      );
    }
    offset += width;
  }
}
