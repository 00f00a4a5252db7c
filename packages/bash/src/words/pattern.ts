/**
 * Bash patterns (`*`, `?`, `[...]` with classes, extglob groups) compiled to JS RegExp.
 * Pattern text uses backslash to quote the next character (the expansion stage escapes
 * quoted characters that way). Pathname expansion is in `pathname-expansion.ts`.
 */

import { isAsciiText, toByteChars } from "../text/shell-bytes.js";

const CLASSES: Readonly<Record<string, string>> = {
  alpha: "a-zA-Z",
  digit: "0-9",
  alnum: "a-zA-Z0-9",
  upper: "A-Z",
  lower: "a-z",
  space: " \\t\\n\\r\\f\\v",
  blank: " \\t",
  punct: "!-\\/:-@\\[-`{-~",
  print: " -~",
  graph: "!-~",
  cntrl: "\\x00-\\x1f\\x7f",
  xdigit: "0-9A-Fa-f",
  word: "a-zA-Z0-9_",
};

const escapeRegex = (char: string): string => char.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

/** True when the pattern has an unescaped glob character. */
export function hasGlob(pattern: string): boolean {
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index];
    if (char === "\\") index += 1;
    else if (char === "*" || char === "?") return true;
    else if ((char === "!" || char === "+" || char === "@") && pattern[index + 1] === "(")
      return true;
    else if (char === "[" && pattern.indexOf("]", index + 2) > 0) return true;
  }
  return false;
}

/** Remove the pattern escapes: the literal text the pattern stands for. */
export function unescapePattern(pattern: string): string {
  return pattern.replace(/\\(.)/gs, "$1");
}

/** Escape text so it matches only itself as a pattern. */
export function escapePattern(text: string): string {
  return text.replace(/[\\*?[\]()|!@+]/g, "\\$&");
}

function bracket(pattern: string, start: number): { source: string; end: number } | null {
  let index = start + 1;
  let negate = false;
  if (pattern[index] === "!" || pattern[index] === "^") {
    negate = true;
    index += 1;
  }
  let body = "";
  let first = true;
  for (; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === "]" && !first) {
      return { source: body === "" ? "(?!)" : `[${negate ? "^" : ""}${body}]`, end: index };
    }
    first = false;
    if (char === "[" && pattern[index + 1] === ":") {
      const close = pattern.indexOf(":]", index + 2);
      if (close > 0) {
        const name = pattern.slice(index + 2, close);
        body += CLASSES[name] ?? "";
        index = close + 1;
        continue;
      }
    }
    if (char === "\\" && index + 1 < pattern.length) {
      index += 1;
      body += escapeRegex(pattern[index] as string);
      continue;
    }
    if (char === "-" && body !== "" && pattern[index + 1] !== "]") {
      body += "-";
      continue;
    }
    body += escapeRegex(char);
  }
  return null;
}

function extglobEnd(pattern: string, open: number): number {
  let depth = 0;
  for (let index = open; index < pattern.length; index += 1) {
    const char = pattern[index];
    if (char === "\\") index += 1;
    else if (char === "(") depth += 1;
    else if (char === ")") {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}

function splitAlternatives(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (char === "\\") {
      current += char + (text[index + 1] ?? "");
      index += 1;
      continue;
    }
    if (char === "(") depth += 1;
    if (char === ")") depth -= 1;
    if (char === "|" && depth === 0) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/** The RegExp source (unanchored) of a bash pattern. */
export function patternSource(pattern: string, extglob = true): string {
  let source = "";
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    const next = pattern[index + 1];
    if (extglob && next === "(" && "?*+@!".includes(char)) {
      const end = extglobEnd(pattern, index + 1);
      if (end > 0) {
        const inner = splitAlternatives(pattern.slice(index + 2, end))
          .map((part) => patternSource(part, extglob))
          .join("|");
        const rest = patternSource(pattern.slice(end + 1), extglob);
        index = pattern.length;
        if (char === "?") source += `(?:${inner})?`;
        else if (char === "*") source += `(?:${inner})*`;
        else if (char === "+") source += `(?:${inner})+`;
        else if (char === "@") source += `(?:${inner})`;
        else source += `(?:(?!(?:${inner})${rest}$)[\\s\\S]*?)`;
        source += rest;
        break;
      }
    }
    if (char === "\\") {
      index += 1;
      source += escapeRegex(pattern[index] ?? "\\");
    } else if (char === "*") source += "[\\s\\S]*";
    else if (char === "?") source += "[\\s\\S]";
    else if (char === "[") {
      const result = bracket(pattern, index);
      if (result === null) source += "\\[";
      else {
        source += result.source;
        index = result.end;
      }
    } else source += escapeRegex(char);
  }
  return source;
}

const cache = new Map<string, RegExp>();

/** Whole-string match of `text` against a bash pattern. */
export function matchPattern(pattern: string, text: string, nocase = false): boolean {
  // Non-ASCII matches byte by byte, as bash's patterns do under LC_ALL=C (`?` is one byte).
  if (!isAsciiText(text) || !isAsciiText(pattern))
    return matchCompiled(toByteChars(pattern), toByteChars(text), nocase);
  return matchCompiled(pattern, text, nocase);
}

function matchCompiled(pattern: string, text: string, nocase: boolean): boolean {
  const key = `${nocase ? "i" : "c"}${pattern}`;
  let regex = cache.get(key);
  if (regex === undefined) {
    regex = new RegExp(`^(?:${patternSource(pattern)})$`, nocase ? "i" : "");
    if (cache.size > 500) cache.clear();
    cache.set(key, regex);
  }
  return regex.test(text);
}
