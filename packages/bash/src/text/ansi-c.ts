/** Decoding of the escapes inside `$'…'` (bash's `ansicstr`). */

import { isHexDigit } from "../parse/characters.js";
import { ANSI_C_ESCAPES } from "./backslash-escapes.js";
import { canonicalShellText, shellByte } from "./shell-bytes.js";

function takeWhile(
  text: string,
  from: number,
  max: number,
  accept: (char: string | undefined) => boolean,
): string {
  let end = from;
  while (end < text.length && end - from < max && accept(text[end])) end += 1;
  return text.slice(from, end);
}

function isOctal(char: string | undefined): boolean {
  return char !== undefined && char >= "0" && char <= "7";
}

function fromCodePoint(value: number): string {
  return value <= 0x10ffff ? String.fromCodePoint(value) : "";
}

/** Decode the raw body of a `$'…'` string (between the quotes). */
export function decodeAnsiC(raw: string): string {
  let out = "";
  let index = 0;
  while (index < raw.length) {
    const char = raw[index] as string;
    if (char !== "\\" || index + 1 >= raw.length) {
      out += char;
      index += 1;
      continue;
    }
    const next = raw[index + 1] as string;
    const simple = ANSI_C_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      index += 2;
    } else if (isOctal(next)) {
      const digits = takeWhile(raw, index + 1, 3, isOctal);
      out += shellByte(Number.parseInt(digits, 8));
      index += 1 + digits.length;
    } else if (next === "x" || next === "u" || next === "U") {
      const max = next === "x" ? 2 : next === "u" ? 4 : 8;
      const digits = takeWhile(raw, index + 2, max, isHexDigit);
      const value = Number.parseInt(digits, 16);
      // `\xNN` is one byte; `\u`/`\U` a character, written as its UTF-8 (bash's in a
      // UTF-8 locale: under LC_ALL=C bash would print `\u00E9` for a non-ASCII one).
      if (digits === "") out += `\\${next}`;
      else out += next === "x" ? shellByte(value) : fromCodePoint(value);
      index += 2 + digits.length;
    } else if (next === "c" && index + 2 < raw.length) {
      const control = raw[index + 2] as string;
      out +=
        control === "?" ? "\x7f" : String.fromCharCode(control.toUpperCase().charCodeAt(0) & 0x1f);
      index += 3;
    } else {
      out += `\\${next}`;
      index += 2;
    }
  }
  return canonicalShellText(out);
}
