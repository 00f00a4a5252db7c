import path from "node:path";
import { pathProbes } from "./path-probes.js";
import type { PathSight, SightFault } from "./path-sight.js";

/** As many links as Linux follows in one lookup (`MAXSYMLINKS`). */
const MAX_LINKS = 40;

function componentsOf(text: string): { root: string; parts: string[] } {
  const root = path.parse(text).root;
  const parts = text.slice(root.length).split(path.sep === "\\" ? /[\\/]/ : "/");
  return { root, parts: parts.filter((part) => part !== "" && part !== ".") };
}

/**
 * Follows an absolute path as the kernel does, one name at a time (`lstat`, `readlink`
 * for a link, `..` as the parent of where the walk really stands), and stops at the first
 * name out of sight, before looking at it: that name's fault is the answer, whatever is
 * there. `undefined` when every name the walk looks at is in sight and it ends in sight:
 * then whatever stopped a resolution (a dangling link, a loop, a missing directory) lies
 * in sight, and telling it is no leak. The walk also ends, in sight, at the first name
 * that is missing or cannot be looked at, and after `MAX_LINKS` links.
 */
export async function walkInSight(
  absolute: string,
  sight: PathSight,
): Promise<SightFault | undefined> {
  const probes = pathProbes();
  const start = componentsOf(absolute);
  let current = start.root;
  const pending = [...start.parts];
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name === "..") {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, name);
    const fault = sight.passing(next);
    if (fault !== undefined) return fault;
    let info: Awaited<ReturnType<typeof probes.lstat>>;
    try {
      info = await probes.lstat(next);
    } catch {
      return undefined;
    }
    if (!info.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (++links > MAX_LINKS) return undefined;
    let target: string;
    try {
      target = await probes.readlink(next);
    } catch {
      return undefined;
    }
    const followed = componentsOf(target);
    if (path.isAbsolute(target)) current = followed.root;
    pending.unshift(...followed.parts);
  }
  return sight.arriving(current);
}
