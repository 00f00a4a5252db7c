import { lstat } from "node:fs/promises";
import path from "node:path";
import type { Code } from "../codes/codes.js";
import { describeFsError, isMissingError } from "./fs-error-code.js";

export type WalkDecision =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly code: Extract<Code, "FS_SYMLINK_ESCAPE" | "FS_NOT_FOUND" | "FS_CANNOT_RESOLVE">;
      readonly detail: string;
    };

/** Every directory from the file system root down to the parent of `real`. */
function directoriesAbove(real: string): string[] {
  const root = path.parse(real).root;
  const parts = real.slice(root.length).split(path.sep).filter(Boolean);
  const directories = [root];
  for (const part of parts.slice(0, -1)) {
    directories.push(path.join(directories.at(-1) ?? root, part));
  }
  return directories;
}

/**
 * Checks, without following links, that every directory on a judged real path is
 * still a directory and not a symbolic link. A real path has no links, so any link met
 * here was swapped in after the judgement: the open would leave the area it was judged
 * in. The walk starts at the file system root, a superset of "beneath the matched
 * root" that also covers the root's own ancestors.
 */
export async function walkDirectories(real: string): Promise<WalkDecision> {
  // Asked together (one thread-pool round trip per component would serialise them);
  // judged in order from the root, so the first broken component decides.
  const checks = await Promise.allSettled(
    directoriesAbove(real).map((directory) => lstat(directory)),
  );
  for (const check of checks) {
    if (check.status === "rejected") {
      const code = isMissingError(check.reason) ? "FS_NOT_FOUND" : "FS_CANNOT_RESOLVE";
      return { ok: false, code, detail: describeFsError(check.reason) };
    }
    if (check.value.isSymbolicLink()) {
      return { ok: false, code: "FS_SYMLINK_ESCAPE", detail: "a directory became a link" };
    }
    if (!check.value.isDirectory()) return { ok: false, code: "FS_NOT_FOUND", detail: "ENOTDIR" };
  }
  return { ok: true };
}
