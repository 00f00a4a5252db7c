import { type Dirent, existsSync, readdirSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { checkContained, foldPathName, matchBlockedEntry } from "@agent-bridle/core";

/** How far into a write root the search for existing write-blocked files goes. */
const MAX_DEPTH = 4;
const MAX_DIRECTORIES = 256;
/** Trees that hold dependencies, build output or git's objects, not configuration. */
const SKIPPED = new Set([
  "node_modules",
  ".venv",
  "target",
  "objects",
  ".pnpm-store",
  ".turbo",
  ".cache",
  "dist",
  "build",
  "coverage",
]);

export interface WriteProtection {
  /** Existing write-blocked files and directories, bound read-only in the view. */
  readonly protect: string[];
  /** Write roots whose search stopped at its bound (disclosed: deeper entries are not bound). */
  readonly incomplete: string[];
}

interface RootSearch {
  readonly protect: readonly string[];
  readonly complete: boolean;
}

type Lister = (directory: string) => Promise<Dirent[]> | Dirent[];

const listNow: Lister = (directory) => {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
};

const listLater: Lister = (directory) =>
  readdir(directory, { withFileTypes: true }).catch(() => [] as Dirent[]);

/**
 * The names a search must look at: the first component of each pattern (`**\/.git/config`
 * → `.git`). `undefined` when a pattern starts with a wildcard (every name is a candidate).
 */
function firstNames(patterns: readonly string[]): Set<string> | undefined {
  const names = new Set<string>();
  for (const pattern of patterns) {
    const first = pattern.replace(/^(\*\*\/)+/, "").split("/")[0] ?? "";
    if (first === "" || first.includes("*")) return undefined;
    names.add(foldPathName(first));
  }
  return names;
}

/**
 * One root, breadth first: `MAX_DEPTH` levels, `MAX_DIRECTORIES` directories, matching only
 * entries named like a pattern's first component and what lies beneath them; links are
 * matched by their own name, not followed. `list` is synchronous on a first search and
 * asynchronous (the thread pool) on a refresh.
 */
async function searchRoot(root: string, patterns: readonly string[], list: Lister) {
  const candidates = firstNames(patterns);
  const blocked = (path: string) => patterns.some((entry) => matchBlockedEntry(entry, path));
  const protect: string[] = [];
  if (blocked(root)) return { protect, complete: true };
  let level = [{ path: root, inside: false }];
  let visited = 0;
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: typeof level = [];
    for (const directory of level) {
      if (++visited > MAX_DIRECTORIES) return { protect, complete: false };
      for (const entry of await list(directory.path)) {
        const path = join(directory.path, entry.name);
        const inside = directory.inside || candidates?.has(foldPathName(entry.name)) !== false;
        // A `.git` file (`gitdir: <path>`) sends git elsewhere; it cannot be a pattern (an
        // entry covers what lies beneath it, and `.git` is usually git's own directory).
        if ((inside && blocked(path)) || (entry.name === ".git" && entry.isFile()))
          protect.push(path);
        else if (entry.isDirectory() && !SKIPPED.has(entry.name)) next.push({ path, inside });
        // Of git's objects only `info` can hold configuration (`alternates`).
        else if (inside && entry.isDirectory() && entry.name === "objects")
          next.push({ path: join(path, "info"), inside });
      }
    }
    level = next;
  }
  return { protect, complete: true };
}

/**
 * What a root held at the end of the last call that could write it: searched once
 * (synchronously, before the first spawn), then again in the background after each call
 * that wrote beneath it (`refreshWriteProtection`); a call that starts while a refresh
 * runs waits for it. So a call sees the configuration that existed when it started,
 * except what a call still running beside it creates (a residual, SECURITY.md).
 */
interface Remembered {
  /** The write-block patterns it was searched for (and their joined form, to compare). */
  readonly patterns: readonly string[];
  readonly key: string;
  readonly result: RootSearch | Promise<RootSearch>;
}

const searches = new Map<string, Remembered>();
/** Roots remembered at most (each call's private temp directory is a root of its own). */
const MAX_REMEMBERED = 64;

function remember(root: string, entry: Remembered) {
  searches.delete(root);
  searches.set(root, entry);
  if (searches.size > MAX_REMEMBERED) {
    const oldest = searches.keys().next().value;
    if (oldest !== undefined) searches.delete(oldest);
  }
}

/**
 * Write-blocked configuration that exists in the write roots when the call starts
 * (kernel-boundary.md §2, secrets): `.git/config`, hooks, shell rc files, agent and
 * editor settings, and every absolute write-blocked entry inside a root.
 */
export async function writeProtected(
  roots: readonly string[],
  writeBlocked: readonly string[],
): Promise<WriteProtection> {
  const protect: string[] = [];
  const incomplete: string[] = [];
  const patterns = writeBlocked.filter((entry) => !isAbsolute(entry));
  const key = patterns.join("\n");
  for (const entry of writeBlocked) {
    if (isAbsolute(entry) && roots.some((root) => checkContained(entry, root)) && existsSync(entry))
      protect.push(entry);
  }
  for (const root of roots) {
    let cached = searches.get(root);
    if (cached === undefined || cached.key !== key) {
      cached = { patterns, key, result: await searchRoot(root, patterns, listNow) };
      remember(root, cached);
    }
    const found = await cached.result;
    protect.push(...found.protect);
    if (!found.complete) incomplete.push(root);
  }
  return { protect, incomplete };
}

/** Searches `roots` again in the background (a call that could write beneath them ended). */
export function refreshWriteProtection(roots: readonly string[]): void {
  for (const root of roots) {
    const cached = searches.get(root);
    if (cached === undefined) continue;
    const entry = { ...cached, result: searchRoot(root, cached.patterns, listLater) };
    remember(root, entry);
    void entry.result.then((done) => {
      if (searches.get(root) === entry) searches.set(root, { ...entry, result: done });
    });
  }
}
