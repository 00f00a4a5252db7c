import { lstat, readdir, rename } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { createDenial, type Denial, matchBlockedEntry } from "@agent-bridle/core";
import { gitlinksOf, indexStamp } from "./git-index-links.js";
import { plantedGitFile, plantedInGitDir } from "./planted-repositories.js";

/**
 * Names in a git directory whose mere presence sends git to run or read configuration
 * from elsewhere at the user's next command: `commondir` (another common directory, with
 * its config and hooks), `hooks/`, `info/`, a worktree config, object alternates. A
 * linked worktree's (`worktrees/`) and a submodule's (`modules/`) directories git makes
 * itself in ordinary work (`git worktree add`, `git submodule update`), so they are judged
 * by their content instead (planted-repositories.ts, ADR 0031).
 */
const GIT_INDIRECTIONS = [
  "commondir",
  "gitdir",
  "config.worktree",
  "hooks",
  "info",
  "objects/info/alternates",
  "objects/info/http-alternates",
];

/** What the call's programs planted where no read-only bind could stop them. */
export interface PlantedConfiguration {
  /**
   * Once the tree is gone: every watched path that exists now but did not at the start is
   * moved aside (`<name>.bridle-planted-<time>`, which no tool reads), each a denial.
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
 * The fixed names the write-block patterns give, each relative to a directory where a
 * tool looks for it (`**\/.mcp.json` → `.mcp.json`, `**\/.claude/**` → `.claude`); patterns
 * with a wildcard inside, and git's own (watched per git directory), give none.
 */
function configurationNames(patterns: readonly string[]): string[] {
  return patterns
    .map((entry) => entry.replace(/^(\*\*\/)+/, "").replace(/(\/\*\*)+$/, ""))
    .filter((name) => name !== "" && !name.includes("*") && !name.startsWith(".git/"));
}

/**
 * Watches write-blocked configuration missing when the call starts. The view binds the
 * existing entries read-only; a missing one cannot be bound (there is nothing to bind
 * over), so a program could create it and a tool would follow it after the call, outside
 * any boundary (kernel-boundary.md §1.2): git's indirections in every git directory
 * found (`gitDirs`), and the agent, editor and shell configuration (`.mcp.json`,
 * `.claude/`, `.vscode/`, `.bashrc`, …) in each write root and repository root. A
 * repository the call itself makes (`git init`, `git clone`) is new content, as the spec
 * allows, and its root is not swept. The interpreter's own writes are refused by name.
 */
export async function watchPlanted(
  gitDirs: readonly string[],
  roots: readonly string[],
  writeBlocked: readonly string[],
  existed: readonly string[],
): Promise<PlantedConfiguration> {
  const patterns = writeBlocked.filter((entry) => !isAbsolute(entry));
  const blocked = (path: string) => patterns.some((entry) => matchBlockedEntry(entry, path));
  const names = configurationNames(patterns);
  const projectRoots = [...new Set([...roots, ...gitDirs.map((dir) => dirname(dir))])];
  // Each root and git directory is listed once now and once at the end.
  const watches = await Promise.all([
    ...projectRoots.map((root) => missingIn(root, names)),
    ...gitDirs.map((dir) =>
      missingIn(
        dir,
        GIT_INDIRECTIONS.filter((name) => blocked(join(dir, name))),
      ),
    ),
  ]);
  const links = await Promise.all(gitDirs.map(watchLinks));
  let swept: Promise<readonly Denial[]> | undefined;
  const sweepOnce = async (): Promise<readonly Denial[]> => {
    const found = await Promise.all([
      ...watches.map(plantedIn),
      plantedInRepositories(links, existed),
    ]);
    return Promise.all(found.flat().map(moveAside));
  };
  const idle = watches.every((watch) => watch.missing.length === 0) && gitDirs.length === 0;
  return {
    sweep: () => {
      swept ??= idle ? Promise.resolve([]) : sweepOnce();
      return swept;
    },
  };
}

/** The names directly in `dir` (none where it cannot be read). */
const listed = (dir: string) =>
  readdir(dir).then(
    (entries) => new Set(entries),
    () => new Set<string>(),
  );

interface RootWatch {
  readonly root: string;
  /** The configuration names missing at the start. */
  readonly missing: readonly string[];
  /** The root held no repository at the start (one made during the call keeps its files). */
  readonly hadNoRepository: boolean;
}

/** One listing of `root` (and a look beneath a first component that exists). */
async function missingIn(root: string, names: readonly string[]): Promise<RootWatch> {
  const present = await listed(root);
  const missing: string[] = [];
  for (const name of names) {
    const first = name.split("/")[0] as string;
    if (!present.has(first) || (name !== first && (await absent(join(root, name)))))
      missing.push(name);
  }
  return { root, missing, hadNoRepository: !present.has(".git") };
}

/** What of `watch.missing` exists now, unless the root became a repository of the call's. */
async function plantedIn(watch: RootWatch): Promise<string[]> {
  if (watch.missing.length === 0) return [];
  const present = await listed(watch.root);
  if (watch.hadNoRepository && present.has(".git")) return []; // `git clone`, `git init`
  const found: string[] = [];
  for (const name of watch.missing) {
    const path = join(watch.root, name);
    if (present.has(name.split("/")[0] as string) && !(await absent(path))) found.push(path);
  }
  return found;
}

/** A git directory's gitlinks whose `.git` file did not exist when the call started. */
interface LinkWatch {
  readonly gitDir: string;
  /** The gitlinks' `.git` files that existed at the start (a submodule already checked out). */
  readonly present: ReadonlySet<string>;
}

const gitFileOf = (gitDir: string, link: string) => join(dirname(gitDir), link, ".git");

async function watchLinks(gitDir: string): Promise<LinkWatch> {
  const links = await gitlinksOf(gitDir, await indexStamp(join(gitDir, "index")));
  const files = links.map((link) => gitFileOf(gitDir, link));
  const missing = await Promise.all(files.map(absent));
  return { gitDir, present: new Set(files.filter((_, index) => !missing[index])) };
}

/**
 * The submodule and worktree routes into repositories that existed (`gitDirs`): a `.git`
 * file new at a gitlink of the index (git status walks into it) that leads elsewhere, and
 * new submodule or worktree git directories holding more than git writes
 * (planted-repositories.ts). The index is read only when it changed.
 */
async function plantedInRepositories(
  links: readonly LinkWatch[],
  existed: readonly string[],
): Promise<string[]> {
  const gitDirs = links.map((watch) => watch.gitDir);
  const before = new Set(existed);
  const planted = async (file: string) =>
    !before.has(file) && !(await absent(file)) && (await plantedGitFile(file, gitDirs));
  const perRepository = links.map(async ({ gitDir, present }) => {
    const stamp = await indexStamp(join(gitDir, "index"));
    const files = (await gitlinksOf(gitDir, stamp))
      .map((link) => gitFileOf(gitDir, link))
      .filter((file) => !present.has(file));
    const made = await Promise.all(files.map(planted));
    return [...files.filter((_, index) => made[index]), ...(await plantedInGitDir(gitDir, before))];
  });
  return (await Promise.all(perRepository)).flat();
}

async function moveAside(path: string): Promise<Denial> {
  const aside = `${path}.bridle-planted-${Date.now()}`;
  const moved = await rename(path, aside).then(
    () => true,
    () => false,
  );
  return createDenial(
    "open",
    path,
    "FS_BLOCKED",
    `write of ${JSON.stringify(path)}: it is write-blocked configuration a tool would follow after the call, and a program of this call created it; ${
      moved
        ? `it was moved aside to ${JSON.stringify(aside)} when the call ended`
        : "it could not be moved aside: remove it before using a tool there"
    }`,
  );
}
