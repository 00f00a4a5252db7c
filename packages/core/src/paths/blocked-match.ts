import type { PathOperation, PathPolicy } from "./path-policy.js";

const ANY = "**";
const ROOT = "/";

function trimTrailingDotsAndSpaces(name: string): string {
  let end = name.length;
  while (end > 0 && (name[end - 1] === "." || name[end - 1] === " ")) end--;
  return end === 0 ? name : name.slice(0, end);
}

/**
 * The key one path component is compared by when matching blocked entries:
 * canonically decomposed (NFD, so an NFC `é` and an NFD `e`+U+0301 agree, as on
 * APFS), case-mapped up then down (so `ß`/`SS` and `ſ`/`s` agree as well as `A`/`a`:
 * closer to Unicode case folding than `toLowerCase` alone), decomposed again (case
 * mapping can leave a sequence unnormalised), and stripped of trailing dots and spaces
 * (Win32 drops them: `blocked.` opens `blocked`). Every step only makes more names
 * equal, so on a case-sensitive file system this blocks a few more paths than it must,
 * never fewer.
 */
export function foldPathName(name: string): string {
  const folded = name.normalize("NFD").toUpperCase().toLowerCase().normalize("NFD");
  return trimTrailingDotsAndSpaces(folded);
}

/**
 * The folded components of a path or entry, with a leading root token (`/` for a
 * separator, `c:` for a drive). Both separators count (on POSIX this over-blocks a
 * name holding a backslash, which is safe). `.` is dropped; `..` removes the previous
 * component (entries and judged paths are already free of them).
 */
export function matchComponents(text: string): string[] {
  const components: string[] = [];
  let rest = text;
  if (/^[A-Za-z]:/.test(rest)) {
    components.push(rest.slice(0, 2).toLowerCase());
    rest = rest.slice(2);
  } else if (rest.startsWith("/") || rest.startsWith("\\")) {
    components.push(ROOT);
  }
  const rootCount = components.length;
  for (const name of rest.split(/[\\/]/)) {
    if (name === "" || name === ".") continue;
    if (name === "..") {
      if (components.length > rootCount) components.pop();
    } else components.push(name === ANY ? ANY : foldPathName(name));
  }
  return components;
}

/** Entries already made patterns: a policy's few dozen entries are matched on every judgement. */
const patterns = new Map<string, readonly string[]>();
const MAX_REMEMBERED_PATTERNS = 4096;

/** An entry as a pattern: absolute entries are anchored at their root, any other at `**`. */
function patternOf(entry: string): readonly string[] {
  const known = patterns.get(entry);
  if (known !== undefined) return known;
  const components = matchComponents(entry);
  const pattern = Object.freeze(
    components[0] === ANY || /^([A-Za-z]:|[\\/])/.test(entry) ? components : [ANY, ...components],
  );
  if (patterns.size >= MAX_REMEMBERED_PATTERNS) patterns.clear();
  patterns.set(entry, pattern);
  return pattern;
}

/**
 * Whether the pattern matches a leading run of the path's components (so an entry
 * covers itself and everything beneath it). `**` matches any number of components.
 * A set of reachable positions, no regular expression: O(pattern × path), no
 * backtracking.
 */
function matchesPrefix(pattern: readonly string[], path: readonly string[]): boolean {
  let reachable = new Array<boolean>(path.length + 1).fill(false);
  reachable[0] = true;
  for (const segment of pattern) {
    const next = new Array<boolean>(path.length + 1).fill(false);
    let seen = false;
    for (let index = 0; index <= path.length; index++) {
      if (segment === ANY) {
        seen ||= reachable[index] === true;
        next[index] = seen;
      } else if (reachable[index] === true && path[index] === segment) next[index + 1] = true;
    }
    reachable = next;
  }
  return reachable.some(Boolean);
}

/** Whether one blocked entry covers `path` (see `PathPolicy` and `foldPathName`). */
export function matchBlockedEntry(entry: string, path: string): boolean {
  return matchesPrefix(patternOf(entry), matchComponents(path));
}

export type BlockedDecision =
  | { readonly blocked: false }
  | { readonly blocked: true; readonly entry: string };

/**
 * Whether a (real) path is blocked for the operation: `blocked` always, `writeBlocked`
 * for writes only. Returns the first entry that covers it.
 */
export function checkBlocked(
  policy: PathPolicy,
  path: string,
  operation: PathOperation,
): BlockedDecision {
  const components = matchComponents(path);
  const entries =
    operation === "write" ? [...policy.blocked, ...policy.writeBlocked] : policy.blocked;
  for (const entry of entries) {
    if (matchesPrefix(patternOf(entry), components)) return { blocked: true, entry };
  }
  return { blocked: false };
}
