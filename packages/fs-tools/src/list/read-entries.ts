import type { Dir } from "node:fs";
import { opendir } from "node:fs/promises";

export interface EntryScan {
  /** The names selected, in the order the directory yielded them. */
  readonly names: readonly string[];
  /** More matching names exist, or the scan stopped before the end of the directory. */
  readonly truncated: boolean;
}

export interface EntryFilter {
  /** Most names returned. */
  readonly limit: number;
  /** Most names examined (matching or not); the scan stops there. */
  readonly scanLimit: number;
  readonly matches: (name: string) => boolean;
  readonly signal: AbortSignal;
}

async function scan(dir: Dir, filter: EntryFilter): Promise<EntryScan> {
  const names: string[] = [];
  let examined = 0;
  for (let entry = await dir.read(); entry !== null; entry = await dir.read()) {
    examined += 1;
    if (examined > filter.scanLimit) return { names, truncated: true };
    if (!filter.matches(entry.name)) continue;
    if (names.length >= filter.limit) return { names, truncated: true };
    names.push(entry.name);
    if (examined % 4096 === 0) filter.signal.throwIfAborted();
  }
  return { names, truncated: false };
}

/**
 * Streams a directory's names (never loading the whole listing), keeping at most `limit`
 * that match and examining at most `scanLimit`, so time and memory stay bounded on a huge
 * directory.
 */
export async function readEntries(directory: string, filter: EntryFilter): Promise<EntryScan> {
  const dir = await opendir(directory, { bufferSize: 256 });
  try {
    return await scan(dir, filter);
  } finally {
    await dir.close();
  }
}
