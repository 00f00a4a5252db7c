import type { ByteBuilder } from "../io/byte-builder.js";

const SIMPLE: Readonly<Record<string, number>> = {
  a: 7,
  b: 8,
  e: 0x1b,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
  "\\": 0x5c,
};

const isOctal = (char: string | undefined) => char !== undefined && char >= "0" && char <= "7";
const hexValue = (char: string | undefined) =>
  char === undefined || !/^[0-9a-fA-F]$/.test(char) ? -1 : Number.parseInt(char, 16);

export type EscapeResult = { readonly stop: boolean };

/**
 * GNU `/bin/echo -e` escapes over a byte string: `\a \b \e \f \n \r \t \v \\`,
 * `\xHH` (one or two hex digits), `\0NNN` (up to three octal digits after the 0),
 * `\NNN` (1-7 first, three digits in all); `\c` stops all output. Anything else keeps
 * its backslash.
 */
export function appendEscaped(out: ByteBuilder, text: string): EscapeResult {
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (char !== "\\" || index + 1 >= text.length) {
      out.byte(text.charCodeAt(index));
      continue;
    }
    const next = text[index + 1] as string;
    if (next === "c") return { stop: true };
    const simple = SIMPLE[next];
    if (simple !== undefined) {
      out.byte(simple);
      index += 1;
      continue;
    }
    if (next === "x" && hexValue(text[index + 2]) >= 0) {
      let value = hexValue(text[index + 2]);
      index += 2;
      if (hexValue(text[index + 1]) >= 0) {
        value = value * 16 + hexValue(text[index + 1]);
        index += 1;
      }
      out.byte(value);
      continue;
    }
    if (next === "0" || (next >= "1" && next <= "7")) {
      // GNU: "\0" introduces up to 3 more octal digits; "\1".."\7" up to 3 in all.
      let position = next === "0" ? index + 2 : index + 1;
      let value = 0;
      const end = position + 3;
      while (position < end && isOctal(text[position])) {
        value = value * 8 + Number(text[position]);
        position += 1;
      }
      out.byte(value & 0xff);
      index = position - 1;
      continue;
    }
    out.byte(0x5c);
  }
  return { stop: false };
}
