import { type Dirent, existsSync, readdirSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { checkContained, foldPathName, matchBlockedEntry } from "@agent-bridle/core";

/** How far into a write root the search for existing write-blocked files goes. */
const MAX_DEPTH = 5;
const MAX_DIRECTORIES = 1024;
/** Trees that hold dependencies or git's objects, not configuration (and are large). */
const SKIPPED = new Set(["node_modules", ".venv", "target", "objects", ".pnpm-store"]);

export interface WriteProtection {
  /** Existing write-blocked files and directories, bound read-only in the view. */
  readonly protect: string[];
  /** Write roots whose search stopped at its bound (disclosed: deeper entries are not bound). */
  readonly incomplete: string[];
}

function entriesOf(directory: string): Dirent[] {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
}

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
 * Write-blocked configuration that exists in the write roots when the call starts
 * (kernel-boundary.md §2, secrets): `.git/config`, hooks, shell rc files, agent and
 * editor settings. A breadth-first search of directories (`MAX_DEPTH` levels,
 * `MAX_DIRECTORIES` per root) that matches only entries named like a pattern's first
 * component and what lies beneath them; links are matched by their own name, not
 * followed.
 */
export function writeProtected(
  roots: readonly string[],
  writeBlocked: readonly string[],
): WriteProtection {
  const protect: string[] = [];
  const incomplete: string[] = [];
  const patterns = writeBlocked.filter((entry) => !isAbsolute(entry));
  const candidates = firstNames(patterns);
  const blocked = (path: string) => patterns.some((entry) => matchBlockedEntry(entry, path));
  for (const entry of writeBlocked) {
    if (isAbsolute(entry) && roots.some((root) => checkContained(entry, root)) && existsSync(entry))
      protect.push(entry);
  }
  for (const root of roots) {
    if (blocked(root)) continue;
    let level = [{ path: root, inside: false }];
    let visited = 0;
    for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
      const next: typeof level = [];
      for (const directory of level) {
        if (++visited > MAX_DIRECTORIES) break;
        for (const entry of entriesOf(directory.path)) {
          const path = join(directory.path, entry.name);
          const inside = directory.inside || candidates?.has(foldPathName(entry.name)) !== false;
          if (inside && blocked(path)) protect.push(path);
          else if (entry.isDirectory() && !SKIPPED.has(entry.name)) next.push({ path, inside });
        }
      }
      if (visited > MAX_DIRECTORIES) {
        incomplete.push(root);
        break;
      }
      level = next;
    }
  }
  return { protect, incomplete };
}
