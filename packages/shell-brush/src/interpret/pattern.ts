/**
 * Bash patterns (`*`, `?`, `[...]` with classes, extglob groups) compiled to JS RegExp.
 * Pattern text uses backslash to quote the next character (the expansion stage escapes
 * quoted characters that way). Pathname expansion lists directories through the
 * caller's gate (`readdir`, and `stat` for literal components and directory checks).
 */
import type { BigIntStats } from "node:fs";
import { join } from "node:path";

type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false };

/** What pathname expansion may touch: the gate's `readdir` and `stat`. */
export interface GlobAccess {
  readdir(path: string): Promise<Outcome<readonly string[]>>;
  stat(path: string): Promise<Outcome<BigIntStats>>;
}

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
  const key = `${nocase ? "i" : "c"}${pattern}`;
  let regex = cache.get(key);
  if (regex === undefined) {
    regex = new RegExp(`^(?:${patternSource(pattern)})$`, nocase ? "i" : "");
    if (cache.size > 500) cache.clear();
    cache.set(key, regex);
  }
  return regex.test(text);
}

/** Pathname expansion of one pattern relative to `cwd`; sorted matches, or [] when none. */
export async function expandPathname(
  access: GlobAccess,
  pattern: string,
  cwd: string,
  dotglob = false,
  nocase = false,
): Promise<string[]> {
  const absolute = pattern.startsWith("/");
  const components = pattern.split("/");
  let results: string[] = [absolute ? "/" : ""];
  const start = absolute ? 1 : 0;
  for (let index = start; index < components.length; index += 1) {
    const component = components[index] as string;
    const last = index === components.length - 1;
    const next: string[] = [];
    if (component === "") {
      if (last) results = results.map((prefix) => (prefix.endsWith("/") ? prefix : `${prefix}/`));
      continue;
    }
    for (const prefix of results) {
      const directory = prefix === "" ? cwd : prefix.startsWith("/") ? prefix : join(cwd, prefix);
      const joinPrefix = prefix === "" || prefix.endsWith("/") ? prefix : `${prefix}/`;
      if (!hasGlob(component)) {
        const literal = unescapePattern(component);
        if ((await access.stat(join(directory, literal))).ok) next.push(joinPrefix + literal);
        continue;
      }
      const listed = await access.readdir(directory);
      if (!listed.ok) continue;
      const entries = [...listed.value];
      const dotAllowed = dotglob || component.startsWith(".") || component.startsWith("\\.");
      for (const entry of entries.sort()) {
        if (entry.startsWith(".") && !dotAllowed) continue;
        if ((entry === "." || entry === "..") && !component.startsWith(".")) continue;
        if (!matchPattern(component, entry, nocase)) continue;
        if (!last) {
          const stats = await access.stat(join(directory, entry));
          if (!stats.ok || !stats.value.isDirectory()) continue;
        }
        next.push(joinPrefix + entry);
      }
    }
    results = next;
    if (results.length === 0) return [];
  }
  return results.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
}
