import type { Dirent } from "node:fs";
import { access, readdir } from "node:fs/promises";
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
  /** The git directories found: what is missing in them is watched (planted-configuration.ts). */
  readonly gitDirs: string[];
}

interface RootSearch {
  readonly protect: readonly string[];
  readonly gitDirs: readonly string[];
  readonly complete: boolean;
}

/** The entries of `directory` through the thread pool (none where it cannot be read). */
export const list = (directory: string): Promise<Dirent[]> =>
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
 * matched by their own name, not followed. Every listing goes through the thread pool: a
 * search never blocks the host's event loop (issue 20).
 */
async function searchRoot(root: string, patterns: readonly string[]): Promise<RootSearch> {
  const candidates = firstNames(patterns);
  const blocked = (path: string) => patterns.some((entry) => matchBlockedEntry(entry, path));
  const protect: string[] = [];
  const gitDirs: string[] = [];
  if (blocked(root)) return { protect, gitDirs, complete: true };
  let level = [{ path: root, inside: false }];
  let visited = 0;
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: typeof level = [];
    for (const directory of level) {
      if (++visited > MAX_DIRECTORIES) return { protect, gitDirs, complete: false };
      for (const entry of await list(directory.path)) {
        const path = join(directory.path, entry.name);
        if (entry.name === ".git" && entry.isDirectory()) gitDirs.push(path);
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
  return { protect, gitDirs, complete: true };
}

/**
 * What a root held at the end of the last call that could write it: searched before the
 * first spawn, then again in the background after each call that wrote beneath it
 * (`refreshWriteProtection`); a call that starts while a refresh runs waits for it. So a
 * call sees the configuration that existed when it started, except what a call still
 * running beside it creates (a residual, SECURITY.md).
 *
 * Refreshes coalesce: while one runs, the calls that end queue one more, which starts
 * when it ends and so sees everything they wrote. A burst of N calls over one root costs
 * at most two searches in flight, not N.
 */
interface Remembered {
  /** The write-block patterns it was searched for (and their joined form, to compare). */
  readonly patterns: readonly string[];
  readonly key: string;
  readonly result: RootSearch | Promise<RootSearch>;
}

const searches = new Map<string, Remembered>();
/** Per root, the refresh queued last: `started` once it lists (a later end queues again). */
const queued = new Map<string, { started: boolean }>();

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
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
  const gitDirs: string[] = [];
  const patterns = writeBlocked.filter((entry) => !isAbsolute(entry));
  const key = patterns.join("\n");
  for (const entry of writeBlocked) {
    if (
      isAbsolute(entry) &&
      roots.some((root) => checkContained(entry, root)) &&
      (await exists(entry))
    )
      protect.push(entry);
  }
  for (const root of roots) {
    let cached = searches.get(root);
    if (cached === undefined || cached.key !== key) {
      // Remembered as a promise: calls starting together share one first search.
      cached = { patterns, key, result: searchRoot(root, patterns) };
      remember(root, cached);
    }
    const found = await cached.result;
    protect.push(...found.protect);
    gitDirs.push(...found.gitDirs);
    if (!found.complete) incomplete.push(root);
  }
  return { protect, incomplete, gitDirs };
}

/** Searches `roots` again in the background (a call that could write beneath them ended). */
export function refreshWriteProtection(roots: readonly string[]): void {
  for (const root of roots) {
    const cached = searches.get(root);
    // A refresh that has not started yet will see what this call wrote.
    if (cached === undefined || queued.get(root)?.started === false) continue;
    const running = cached.result instanceof Promise ? cached.result : undefined;
    const ticket = { started: false };
    const search = () => {
      ticket.started = true;
      return searchRoot(root, cached.patterns);
    };
    const entry = {
      ...cached,
      result: running === undefined ? search() : running.then(search, search),
    };
    queued.set(root, ticket);
    remember(root, entry);
    void entry.result.then((done) => {
      if (searches.get(root) === entry) searches.set(root, { ...entry, result: done });
      if (queued.get(root) === ticket) queued.delete(root);
    });
  }
}
