import { lstat, rename } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { createDenial, type Denial, matchBlockedEntry } from "@agent-bridle/core";

/**
 * Names in a git directory whose mere presence sends git to run or read configuration
 * from elsewhere at the user's next command: `commondir` (another common directory, with
 * its config and hooks), `hooks/`, `info/`, a worktree config, object alternates. A
 * linked worktree's (`worktrees/`) and a submodule's (`modules/`) directories are new
 * repositories git makes itself (`git worktree add`, `git submodule update`) and are not
 * watched (ADR 0031).
 */
const INDIRECTIONS = [
  "commondir",
  "gitdir",
  "config.worktree",
  "hooks",
  "info",
  "objects/info/alternates",
  "objects/info/http-alternates",
];

/** What the call's programs planted in a repository that existed when it started. */
export interface PlantedConfiguration {
  /**
   * Once the tree is gone: every watched name that exists now but did not at the start is
   * moved aside (`<name>.bridle-planted-<time>`, which git never reads), each a denial.
   * Moved, not removed: nothing of anyone's is lost. Idempotent.
   */
  sweep(): Promise<readonly Denial[]>;
}

const absent = (path: string) =>
  lstat(path).then(
    () => false,
    (error: NodeJS.ErrnoException) => error.code === "ENOENT",
  );

/**
 * Watches the write-blocked indirections missing from `gitDirs` (git directories found in
 * the write roots when the call starts). The view binds the existing ones read-only; a
 * missing one cannot be bound (there is nothing to bind over), so a program could create
 * it, and git would follow it after the call, outside any boundary (kernel-boundary.md
 * §1.2). The interpreter's own writes are refused by name; this covers the programs.
 */
export async function watchPlanted(
  gitDirs: readonly string[],
  writeBlocked: readonly string[],
): Promise<PlantedConfiguration> {
  const patterns = writeBlocked.filter((entry) => !isAbsolute(entry));
  const candidates = gitDirs.flatMap((dir) =>
    INDIRECTIONS.map((name) => join(dir, name)).filter((path) =>
      patterns.some((entry) => matchBlockedEntry(entry, path)),
    ),
  );
  const missing = await Promise.all(candidates.map(absent));
  const watched = candidates.filter((_, index) => missing[index]);
  let swept: Promise<readonly Denial[]> | undefined;
  const sweepOnce = async (): Promise<readonly Denial[]> => {
    const denials: Denial[] = [];
    for (const path of watched) {
      if (await absent(path)) continue;
      const aside = `${path}.bridle-planted-${Date.now()}`;
      const moved = await rename(path, aside).then(
        () => true,
        () => false,
      );
      denials.push(
        createDenial(
          "open",
          path,
          "FS_BLOCKED",
          `write of ${JSON.stringify(path)}: it is write-blocked configuration git would follow at the next command, and a program of this call created it; ${
            moved
              ? `it was moved aside to ${JSON.stringify(aside)} when the call ended`
              : "it could not be moved aside: remove it before running git there"
          }`,
        ),
      );
    }
    return denials;
  };
  return {
    sweep: () => {
      swept ??= watched.length === 0 ? Promise.resolve([]) : sweepOnce();
      return swept;
    },
  };
}
