/**
 * Pathname expansion: a pattern's components matched against directory listings, all
 * through the caller's gate (`readdir`; `lstat` for literal components, so a dangling
 * symlink is an entry as bash sees it; `stat` to descend into directories). `globstar`
 * makes `**` match any depth of directories.
 */
import { join } from "node:path";
import { hasGlob, matchPattern, unescapePattern } from "./pattern.js";

type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false };

/** What pathname expansion needs to know of an entry (a subset of `fs.Stats`). */
export interface GlobEntryStats {
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * What pathname expansion may touch, injected by the caller (its gate): `readdir`,
 * `stat` and `lstat`. This package does no I/O of its own.
 */
export interface GlobAccess {
  readdir(path: string): Promise<Outcome<readonly string[]>>;
  stat(path: string): Promise<Outcome<GlobEntryStats>>;
  lstat(path: string): Promise<Outcome<GlobEntryStats>>;
}

export interface GlobOptions {
  readonly dotglob?: boolean;
  readonly nocase?: boolean;
  readonly globstar?: boolean;
}

function sortBytes(values: string[]): string[] {
  return values.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
}

async function isDirectory(access: GlobAccess, path: string): Promise<boolean> {
  const stats = await access.stat(path);
  return stats.ok && stats.value.isDirectory();
}

/** `prefix` and every directory below it (`**`), hidden ones only under `dotglob`. */
async function directoriesBelow(
  access: GlobAccess,
  directory: string,
  prefix: string,
  dotglob: boolean,
  out: string[],
): Promise<void> {
  const listed = await access.readdir(directory);
  if (!listed.ok) return;
  for (const entry of sortBytes([...listed.value])) {
    if (entry.startsWith(".") && !dotglob) continue;
    const path = join(directory, entry);
    const lstat = await access.lstat(path);
    if (!lstat.ok || lstat.value.isSymbolicLink() || !lstat.value.isDirectory()) continue;
    const named = `${prefix}${entry}/`;
    out.push(named);
    await directoriesBelow(access, path, named, dotglob, out);
  }
}

/** Pathname expansion of one pattern relative to `cwd`; sorted matches, or [] when none. */
export async function expandPathname(
  access: GlobAccess,
  pattern: string,
  cwd: string,
  options: GlobOptions = {},
): Promise<string[]> {
  const dotglob = options.dotglob ?? false;
  const absolute = pattern.startsWith("/");
  const components = pattern.split("/");
  let results: string[] = [absolute ? "/" : ""];
  const start = absolute ? 1 : 0;
  for (let index = start; index < components.length; index += 1) {
    const component = components[index] as string;
    const last = index === components.length - 1;
    const next: string[] = [];
    if (component === "") {
      if (last) results = results.map((prefix) => (prefix.endsWith("/") ? prefix : `${prefix}/`));
      continue;
    }
    for (const prefix of results) {
      const directory = prefix === "" ? cwd : prefix.startsWith("/") ? prefix : join(cwd, prefix);
      const joinPrefix = prefix === "" || prefix.endsWith("/") ? prefix : `${prefix}/`;
      if (component === "**" && options.globstar) {
        const below: string[] = [];
        await directoriesBelow(access, directory, joinPrefix, dotglob, below);
        if (last) {
          // `**` alone: every file and directory at any depth.
          for (const dir of [joinPrefix, ...below]) {
            const listed = await access.readdir(dir === "" ? cwd : join(cwd, dir));
            if (!listed.ok) continue;
            for (const entry of listed.value)
              if (dotglob || !entry.startsWith(".")) next.push(dir + entry);
          }
        } else next.push(joinPrefix, ...below);
        continue;
      }
      if (!hasGlob(component)) {
        const literal = unescapePattern(component);
        if ((await access.lstat(join(directory, literal))).ok) next.push(joinPrefix + literal);
        continue;
      }
      const listed = await access.readdir(directory);
      if (!listed.ok) continue;
      const dotAllowed = dotglob || component.startsWith(".") || component.startsWith("\\.");
      for (const entry of sortBytes([...listed.value])) {
        if (entry.startsWith(".") && !dotAllowed) continue;
        if ((entry === "." || entry === "..") && !component.startsWith(".")) continue;
        if (!matchPattern(component, entry, options.nocase ?? false)) continue;
        if (!last && !(await isDirectory(access, join(directory, entry)))) continue;
        next.push(joinPrefix + entry);
      }
    }
    results = [...new Set(next)];
    if (results.length === 0) return [];
  }
  return sortBytes(
    results.map((path) =>
      path !== "/" && path.endsWith("/") && !pattern.endsWith("/") ? path.slice(0, -1) : path,
    ),
  );
}
