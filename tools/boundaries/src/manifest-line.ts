import { createLineIndex } from "./line-index.js";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** The line of `"key":` inside the `"section"` object of a package.json (1 if not found). */
export function manifestKeyLine(text: string, key: string, section?: string): number {
  const lineOf = createLineIndex(text);
  let from = 0;
  if (section !== undefined) {
    const sectionMatch = new RegExp(`"${escapeRegExp(section)}"\\s*:`).exec(text);
    if (sectionMatch === null) return 1;
    from = sectionMatch.index + sectionMatch[0].length;
  }
  const keyPattern = new RegExp(`"${escapeRegExp(key)}"\\s*:`, "g");
  keyPattern.lastIndex = from;
  const keyMatch = keyPattern.exec(text);
  return keyMatch === null ? 1 : lineOf(keyMatch.index);
}
