/** The string operations of parameter expansion: affixes, replacement, `@` transforms. */

import type { ParameterExpansion, WordPart } from "@agent-bridle/bash";
import {
  ANSI_C_ESCAPES,
  canonicalShellText,
  fromByteChars,
  isAsciiText,
  patternSource,
  shellByte,
  toByteChars,
} from "@agent-bridle/bash";
import { OPTION_LETTERS } from "../state/shell-options.js";
import type { ShellState } from "../state/state.js";
import { ansiQuote, needsAnsiQuote } from "../state/variable-text.js";

export function sourceText(part: ParameterExpansion): string {
  return `\${${part.parameter}}`;
}

export function isAtExpansion(part: WordPart): boolean {
  return (
    part.type === "ParameterExpansion" &&
    !part.length &&
    (part.parameter === "@" ||
      part.index?.parts.map((p) => (p.type === "Literal" ? p.value : "")).join("") === "@")
  );
}

/** `${x#p}` and friends; patterns match bytes (LC_ALL=C), so non-ASCII is matched as bytes. */
export function removeAffix(
  value: string,
  pattern: string,
  prefix: boolean,
  longest: boolean,
): string {
  if (isAsciiText(value) && isAsciiText(pattern))
    return removeAffixIn(value, pattern, prefix, longest);
  return fromByteChars(removeAffixIn(toByteChars(value), toByteChars(pattern), prefix, longest));
}

function removeAffixIn(value: string, pattern: string, prefix: boolean, longest: boolean): string {
  const chars = [...value];
  const regex = new RegExp(`^(?:${patternSource(pattern)})$`, "s");
  if (prefix) {
    if (longest) {
      for (let end = chars.length; end >= 0; end -= 1)
        if (regex.test(chars.slice(0, end).join(""))) return chars.slice(end).join("");
    } else {
      for (let end = 0; end <= chars.length; end += 1)
        if (regex.test(chars.slice(0, end).join(""))) return chars.slice(end).join("");
    }
    return value;
  }
  if (longest) {
    for (let start = 0; start <= chars.length; start += 1)
      if (regex.test(chars.slice(start).join(""))) return chars.slice(0, start).join("");
  } else {
    for (let start = chars.length; start >= 0; start -= 1)
      if (regex.test(chars.slice(start).join(""))) return chars.slice(0, start).join("");
  }
  return value;
}

/** `${x/p/r}` and friends, matching bytes as `removeAffix` does. */
export function replace(
  value: string,
  pattern: string,
  replacement: string,
  mode: "first" | "all" | "prefix" | "suffix",
): string {
  if (isAsciiText(value) && isAsciiText(pattern) && isAsciiText(replacement))
    return replaceIn(value, pattern, replacement, mode);
  const bytes = replaceIn(toByteChars(value), toByteChars(pattern), toByteChars(replacement), mode);
  return fromByteChars(bytes);
}

function replaceIn(
  value: string,
  pattern: string,
  replacement: string,
  mode: "first" | "all" | "prefix" | "suffix",
): string {
  const regex = new RegExp(`^(?:${patternSource(pattern)})$`, "s");
  const chars = [...value];
  if (mode === "prefix") {
    for (let end = chars.length; end >= 0; end -= 1)
      if (regex.test(chars.slice(0, end).join(""))) return replacement + chars.slice(end).join("");
    return value;
  }
  if (mode === "suffix") {
    for (let start = 0; start <= chars.length; start += 1)
      if (regex.test(chars.slice(start).join("")))
        return chars.slice(0, start).join("") + replacement;
    return value;
  }
  if (pattern === "") return value;
  let result = "";
  let position = 0;
  let replaced = false;
  while (position <= chars.length) {
    let matchEnd = -1;
    if (!(replaced && mode === "first")) {
      for (let end = chars.length; end > position; end -= 1) {
        if (regex.test(chars.slice(position, end).join(""))) {
          matchEnd = end;
          break;
        }
      }
    }
    if (matchEnd > 0) {
      result += replacement;
      position = matchEnd;
      replaced = true;
      continue;
    }
    if (position < chars.length) result += chars[position];
    position += 1;
  }
  return result;
}

/** `${x@E}`: backslash escapes as `$'…'` decodes them. */
export function decodeEscapes(value: string): string {
  const decoded = value.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/gs, (whole, code: string) => {
    if (code.startsWith("x")) return shellByte(Number.parseInt(code.slice(1), 16));
    if (/^[0-7]/.test(code)) return shellByte(Number.parseInt(code, 8));
    return ANSI_C_ESCAPES[code] ?? whole;
  });
  return canonicalShellText(decoded);
}

export function quoteValue(value: string): string {
  if (needsAnsiQuote(value)) return ansiQuote(value);
  // bash's sh_single_quote writes a lone quote as `\'`.
  if (value === "'") return "\\'";
  return `'${value.replace(/'/g, "'\\''")}'`;
}

export function transform(value: string, operator: string, _name: string): string {
  switch (operator) {
    case "Q":
      return quoteValue(value);
    // Only ASCII letters change case under LC_ALL=C.
    case "U":
      return value.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
    case "L":
      return value.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
    case "u":
      return value.replace(/^[a-z]/, (letter) => letter.toUpperCase());
    default:
      return value;
  }
}

/** `$-`: the set options in bash's order, plus `h`, `B` and `s` (reading stdin). */
export function dashFlags(state: ShellState): string {
  let flags = "";
  for (const letter of "abefhkmnptuvxBCEHPT") {
    const name = OPTION_LETTERS[letter];
    if (name !== undefined && state.options[name]) flags += letter;
  }
  return `${flags}s`;
}
