import { realpathSync } from "node:fs";
import { isAbsolute } from "node:path";
import {
  isBareProgram,
  matchBlockedEntry,
  resolveOnSearchPath,
  type Scope,
} from "@agent-bridle/core";
import { programParts } from "./program-parts.js";

// Granted paths as a kernel backend must see them: absolute, resolved, existing.

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** A path and, when it is a link, where it leads (Landlock rules bind the opened file). */
export function withRealpath(paths: readonly string[]): string[] {
  return paths.flatMap((path) => {
    const target = real(path);
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
export function grantedRoots(
  scope: Scope<string>,
  blocked: readonly string[],
  extra: readonly string[],
) {
  const entries = scope === "all" ? [] : scope.only;
  const roots = [...entries, ...extra].flatMap((entry) => {
    if (!isAbsolute(entry)) return [];
    const root = real(entry);
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

const systemPaths = new WeakMap<readonly string[], readonly string[]>();

/**
 * `withRealpath` of one of the funnel's constant system lists (runtime closure, bin
 * directories, device sinks, loaders), resolved once per process: root-owned system
 * locations, re-resolved on every spawn for nothing. Never used for granted paths, which
 * are resolved on every call.
 */
export function systemPathsWithRealpath(list: readonly string[]): readonly string[] {
  let resolved = systemPaths.get(list);
  if (resolved === undefined) {
    resolved = Object.freeze(withRealpath(list));
    systemPaths.set(list, resolved);
  }
  return resolved;
}
