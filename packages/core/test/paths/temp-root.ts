import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PathPolicy } from "../../src/paths/path-policy.js";

/** A policy that blocks nothing, so tests see only the rule under test. */
export const NO_BLOCKS: PathPolicy = Object.freeze({ blocked: [], writeBlocked: [] });

/** A fresh temporary directory at its real location (macOS `/tmp` is a link). */
export async function createTempRoot(): Promise<string> {
  return realpath(await mkdtemp(path.join(tmpdir(), "bridle-paths-")));
}

export async function removeTempRoot(root: string | undefined): Promise<void> {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
}

/**
 * Builds a tree under `root`: a string is a file's content, `{ link }` a symbolic link
 * (target as given), `{ dir: true }` an empty directory. Parents are created.
 */
export async function buildTree(
  root: string,
  entries: Record<string, string | { link: string } | { dir: true }>,
): Promise<void> {
  for (const [relative, entry] of Object.entries(entries)) {
    const target = path.join(root, relative);
    await mkdir(path.dirname(target), { recursive: true });
    if (typeof entry === "string") await writeFile(target, entry);
    else if ("link" in entry) await symlink(entry.link, target);
    else await mkdir(target, { recursive: true });
  }
}
