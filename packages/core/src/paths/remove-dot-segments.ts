import path from "node:path";

function isSeparator(character: string | undefined): boolean {
  return character === "/" || (path.sep === "\\" && character === "\\");
}

/** Drops trailing separators, keeping a bare root (`/`, `C:\`) as it is. */
export function trimTrailingSeparators(text: string): string {
  const rootLength = path.parse(text).root.length;
  let end = text.length;
  while (end > rootLength && isSeparator(text[end - 1])) end--;
  return text.slice(0, end);
}

/**
 * Removes `.` and `..` segments as text (the lexical reading: `data/link/../x` is
 * `data/x`, whatever `link` is), collapses repeated separators and drops a trailing
 * one. No file system access. `..` at the root stays at the root; leading `..` of a
 * relative path are kept. The fs tools apply this to the path they are given before
 * judging it, so the physical and lexical readings agree and what they open is what was
 * checked. The empty string stays empty (it is an invalid path, not `.`).
 */
export function removeDotSegments(text: string): string {
  if (text === "") return text;
  return trimTrailingSeparators(path.normalize(text));
}

/** Whether the path has a `.` or `..` segment (on either separator on Windows). */
export function hasDotSegment(text: string): boolean {
  const parts = path.sep === "\\" ? text.split(/[\\/]/) : text.split("/");
  return parts.some((part) => part === "." || part === "..");
}
