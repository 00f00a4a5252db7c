import { realpath } from "node:fs/promises";
import { isAbsolute } from "node:path";
import {
  isBareProgram,
  matchBlockedEntry,
  resolveOnSearchPath,
  type Scope,
} from "@agent-bridle/core";
import { programParts } from "./program-parts.js";

// Granted paths as a kernel backend must see them: absolute, resolved, existing. Every
// look at the file system goes through the thread pool (issue 20: no synchronous work
// per call on the host's event loop).

const real = (path: string): Promise<string | undefined> => realpath(path).catch(() => undefined);

/** A path and, when it is a link, where it leads (Landlock rules bind the opened file). */
export async function withRealpath(paths: readonly string[]): Promise<string[]> {
  const targets = await Promise.all(paths.map(real));
  return paths.flatMap((path, index) => {
    const target = targets[index];
    if (target === undefined) return [];
    return target === path ? [path] : [path, target];
  });
}

export function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}

/**
 * A granted root in its real location and, when it is reached through a link, as
 * spelled (the private view recreates the link, so the spelling keeps working); dropped
 * (fail closed: not granted to the kernel) when relative, missing, or covered by a
 * blocked entry.
 */
export async function grantedRoots(
  scope: Scope<string>,
  blocked: readonly string[],
  extra: readonly string[],
): Promise<string[]> {
  const entries = [...(scope === "all" ? [] : scope.only), ...extra].filter(isAbsolute);
  const resolved = await Promise.all(entries.map(real));
  const roots = entries.flatMap((entry, index) => {
    const root = resolved[index];
    if (root === undefined) return [];
    if (blocked.some((block) => matchBlockedEntry(block, root))) return [];
    return root === entry ? [root] : [entry, root];
  });
  return unique(roots);
}

/**
 * The granted programs and the engine's runtime programs, resolved, each with its parts
 * (link chain, `#!` interpreter, helpers: `program-parts.ts`).
 */
export async function grantedExecutables(scope: Scope<string>, runtime: readonly string[]) {
  const entries = scope === "all" ? [] : scope.only;
  const found = await Promise.all(
    [...entries, ...runtime].map(async (entry) => {
      const path = isBareProgram(entry) ? await resolveOnSearchPath(entry) : entry;
      return path !== undefined && isAbsolute(path) ? programParts(path) : [];
    }),
  );
  return unique(found.flat());
}

const systemPaths = new WeakMap<readonly string[], Promise<readonly string[]>>();

/**
 * `withRealpath` of one of the funnel's constant system lists (runtime closure, bin
 * directories, device sinks, loaders), resolved once per process: root-owned system
 * locations, re-resolved on every spawn for nothing. Never used for granted paths, which
 * are resolved on every call.
 */
export function systemPathsWithRealpath(list: readonly string[]): Promise<readonly string[]> {
  let resolved = systemPaths.get(list);
  if (resolved === undefined) {
    resolved = withRealpath(list).then((paths) => Object.freeze(paths));
    systemPaths.set(list, resolved);
  }
  return resolved;
}
