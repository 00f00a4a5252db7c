import type { BigIntStats } from "node:fs";
import { type FileHandle, lstat } from "node:fs/promises";
import path from "node:path";
import type { JudgedPath, PathPolicy } from "@agent-bridle/core";
import { blockedEntryTest } from "../list/blocked-entries.js";
import { readEntries } from "../list/read-entries.js";
import { checkOpened, releaseReadOnly } from "../paths/check-opened.js";
import { descriptorPath, joinBase } from "../paths/descriptor-location.js";
import type { FileRefusal } from "../paths/file-refusal.js";
import type { ToolPaths } from "../paths/tool-paths.js";
import { MAX_WALK_DEPTH, type SearchBudget } from "./search-budget.js";
import { type SearchQuery, searchFile } from "./search-file.js";

export interface SearchWalk {
  readonly paths: ToolPaths;
  readonly policy: PathPolicy;
  readonly query: SearchQuery;
  /** Whether a file name is searched (the `include` glob); directories are always walked. */
  readonly includes: (name: string) => boolean;
  readonly budget: SearchBudget;
  readonly signal: AbortSignal;
  /** Directories already walked (`dev:ino`), so a followed link cannot loop. */
  readonly visited: Set<string>;
}

async function lstatOrUndefined(location: string): Promise<BigIntStats | undefined> {
  try {
    return await lstat(location, { bigint: true });
  } catch {
    return undefined;
  }
}

async function walkEntry(
  walk: SearchWalk,
  base: string,
  directory: JudgedPath,
  shown: string,
  name: string,
  depth: number,
): Promise<void> {
  const own = await lstatOrUndefined(joinBase(base, name));
  if (own === undefined) return; // removed since it was listed
  // A link entry is followed only as `followSymlinks` allows, and then judged at its target.
  if (own.isSymbolicLink() && !walk.paths.config.followSymlinks) return;
  const location = path.join(directory.real, name);
  const shownEntry = path.join(shown, name);
  if (own.isDirectory() || own.isSymbolicLink()) {
    const opened = await walk.paths.openRead(location);
    if (!opened.ok) return;
    const { handle, path: judged } = opened.value;
    let isDirectory = false;
    try {
      const stats = await handle.stat({ bigint: true });
      isDirectory = stats.isDirectory();
      if (isDirectory && depth < MAX_WALK_DEPTH) {
        await walkOpened(walk, handle, judged, shownEntry, depth + 1);
      } else if (isDirectory) {
        walk.budget.truncated = true;
      }
    } finally {
      releaseReadOnly(handle);
    }
    if (isDirectory || !own.isSymbolicLink()) return;
  }
  if (!walk.includes(name)) return;
  if (own.isFile() || own.isSymbolicLink()) {
    await searchFile(location, shownEntry, walk.query, walk.paths, walk.budget);
  }
}

/**
 * Walks a directory that is open and judged: checks the descriptor is the judged
 * directory, streams its names (blocked names left out, never opened) within the entry
 * budget, and for each entry in name order searches a file or walks a subdirectory, each
 * judged and opened on its own. Returns the refusal when the descriptor is not the
 * judged directory (nothing of it was read).
 */
export async function walkOpened(
  walk: SearchWalk,
  handle: FileHandle,
  judged: JudgedPath,
  shown: string,
  depth: number,
): Promise<FileRefusal | undefined> {
  const checked = await checkOpened(handle, judged, {
    followSymlinks: walk.paths.config.followSymlinks,
    expect: "directory",
  });
  if (!checked.ok) return checked.refusal;
  const key = `${checked.stats.dev}:${checked.stats.ino}`;
  if (walk.visited.has(key)) return undefined;
  walk.visited.add(key);
  const base = descriptorPath(handle) ?? judged.real;
  const isBlocked = blockedEntryTest(walk.policy, judged.real);
  const left = walk.budget.entriesLeft;
  const scanned = await readEntries(base, {
    limit: left,
    scanLimit: left,
    matches: (name) => !isBlocked(name),
    signal: walk.signal,
  });
  walk.budget.spendEntries(scanned.names.length, scanned.truncated);
  const names = [...scanned.names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    if (walk.budget.done) break;
    walk.signal.throwIfAborted();
    await walkEntry(walk, base, judged, shown, name, depth);
  }
  return undefined;
}
