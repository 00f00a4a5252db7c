import { readFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { checkContained } from "@agent-bridle/core";
import { list } from "./write-protected.js";

/**
 * Keys git itself writes in the config of a submodule it clones or a worktree it adds:
 * `section.key`, or `section.*.key` for any subsection. Anything else in a config that
 * appeared during the call (an fsmonitor, a pager, a hooks path, an include, an alias)
 * is configuration a program planted for the user's next git command (ADR 0031).
 */
const GIT_WRITTEN_KEYS = new Set([
  "core.repositoryformatversion",
  "core.filemode",
  "core.bare",
  "core.logallrefupdates",
  "core.worktree",
  "core.ignorecase",
  "core.precomposeunicode",
  "core.symlinks",
  "remote.*.url",
  "remote.*.fetch",
  "branch.*.remote",
  "branch.*.merge",
]);

/** True when every line of a git config is one git writes itself (see above). */
export function gitWrittenConfig(text: string): boolean {
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\]$/.exec(line);
    if (header) {
      section = `${(header[1] as string).toLowerCase()}${line.includes('"') ? ".*" : ""}`;
      continue;
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*(=|$)/.exec(line)?.[1];
    if (key === undefined || line.endsWith("\\")) return false;
    if (!GIT_WRITTEN_KEYS.has(`${section}.${key.toLowerCase()}`)) return false;
  }
  return true;
}

const text = (path: string) => readFile(path, "utf8").catch(() => undefined);

/**
 * Within one git directory, what a program made during the call that git would follow at
 * the user's next command, given the write-blocked entries that existed at the start
 * (`existed`): a submodule's git directory (`modules/…`) whose new config holds more
 * than git writes, or whose hooks are more than git's samples; a linked worktree's
 * (`worktrees/*`) new `commondir` that leads anywhere but this git directory.
 */
export async function plantedInGitDir(
  gitDir: string,
  existed: ReadonlySet<string>,
): Promise<string[]> {
  const found: string[] = [];
  const modules = async (dir: string, depth: number): Promise<void> => {
    if (depth > 4) return;
    for (const entry of await list(dir)) {
      if (!entry.isDirectory()) continue;
      const module = join(dir, entry.name);
      const config = join(module, "config");
      const body = await text(config);
      if (body !== undefined && !existed.has(config)) {
        if (!gitWrittenConfig(body)) found.push(config);
        for (const hook of await list(join(module, "hooks"))) {
          if (!hook.name.endsWith(".sample")) found.push(join(module, "hooks", hook.name));
        }
      }
      await modules(join(module, "modules"), depth + 1);
      if (body === undefined) await modules(module, depth + 1); // a nested name (a/b)
    }
  };
  await modules(join(gitDir, "modules"), 0);
  for (const entry of await list(join(gitDir, "worktrees"))) {
    const commondir = join(gitDir, "worktrees", entry.name, "commondir");
    const body = existed.has(commondir) ? undefined : await text(commondir);
    if (body !== undefined && resolve(dirname(commondir), body.trim()) !== gitDir)
      found.push(commondir);
  }
  return found;
}

/**
 * A `.git` file (`gitdir: <path>`) made during the call inside the work tree of a
 * repository that existed (`repositories`: their git directories): git follows it into
 * a submodule when the index names one there. It may lead only into that repository's
 * own `modules/` or `worktrees/` (checked by `plantedInGitDir`); anything else is planted.
 */
export async function plantedGitFile(
  file: string,
  repositories: readonly string[],
): Promise<boolean> {
  const owner = repositories.find(
    (gitDir) => file !== join(dirname(gitDir), ".git") && checkContained(file, dirname(gitDir)),
  );
  if (owner === undefined) return false; // not inside a repository that existed
  const target = /^gitdir:\s*(.+)$/m.exec((await text(file)) ?? "")?.[1]?.trim();
  if (target === undefined) return true;
  const where = resolve(dirname(file), target);
  return ![join(owner, "modules"), join(owner, "worktrees")].some((own) =>
    where.startsWith(own + sep),
  );
}
