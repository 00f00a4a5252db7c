import type { FileEntry } from "./file-entry.js";
import type { LsSettings } from "./ls-options.js";

const byName = (a: FileEntry, b: FileEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function byTime(a: FileEntry, b: FileEntry): number {
  const difference = b.stats.mtimeNs - a.stats.mtimeNs;
  return difference === 0n ? byName(a, b) : difference < 0n ? -1 : 1;
}

function bySize(a: FileEntry, b: FileEntry): number {
  const difference = b.stats.size - a.stats.size;
  return difference === 0n ? byName(a, b) : difference < 0n ? -1 : 1;
}

/** GNU's order: name (byte order), newest first (-t) or largest first (-S); -r reverses all. */
export function sortEntries(entries: FileEntry[], settings: LsSettings): FileEntry[] {
  const compare =
    settings.sortKey === "time" ? byTime : settings.sortKey === "size" ? bySize : byName;
  return entries.sort(settings.reverse ? (a, b) => compare(b, a) : compare);
}
