/** Moves every node offset of a tree parsed from a derived string back into the original source. */

/** `map[i]` is the source offset of the derived string's offset `i` (length + 1 entries). */
export function remapOffsets(node: unknown, map: readonly number[]): void {
  if (Array.isArray(node)) {
    for (const item of node) remapOffsets(item, map);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if ((key === "start" || key === "end") && typeof value === "number") {
      record[key] = map[value] ?? map[map.length - 1];
    } else if (key !== "flags") {
      remapOffsets(value, map);
    }
  }
}
