import { accessSync, constants, statSync } from "node:fs";
import { join } from "node:path";
import { isBareProgram } from "@agent-bridle/core";

/**
 * Core's `resolveOnSearchPath` rule (the first directory, in order, holding an executable
 * regular file of that name, links followed), answered with metadata calls that do not
 * throw for a missing candidate: most candidates of a search path are missing, and an
 * exception per miss (a stack trace each) was most of the engine's own cost per call.
 * The directories are the trusted system ones, so these stats are dentry-cache hits.
 */
function findOnSearchPath(name: string, searchPath: string): string | undefined {
  if (name === "" || name === "." || name === ".." || !isBareProgram(name)) return undefined;
  for (const directory of searchPath.split(":")) {
    if (!directory.startsWith("/")) continue;
    const candidate = join(directory, name);
    try {
      if (!statSync(candidate, { throwIfNoEntry: false })?.isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not a directory on the way, or not executable: not this candidate.
    }
  }
  return undefined;
}

/** Resolves bare program names on one search path, each name once per call. */
export type ProgramLookup = (name: string) => Promise<string | undefined>;

/**
 * A per-call lookup: each name resolved once per call, as the call's pipelines run in
 * sequence. Admission still makes every decision (core's exec check resolves again on
 * the trusted `PATH` for a restricted grant).
 */
export function programLookup(searchPath: string): ProgramLookup {
  const found = new Map<string, Promise<string | undefined>>();
  const lookup: ProgramLookup = (name) => {
    let pending = found.get(name);
    if (pending === undefined) {
      pending = Promise.resolve(findOnSearchPath(name, searchPath));
      found.set(name, pending);
    }
    return pending;
  };
  return lookup;
}
