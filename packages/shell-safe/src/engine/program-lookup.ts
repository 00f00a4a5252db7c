import { resolveOnSearchPath } from "@agent-bridle/core";

/** Resolves bare program names on one search path, each name once per call. */
export type ProgramLookup = (name: string) => Promise<string | undefined>;

/**
 * A per-call lookup by core's `resolveOnSearchPath` rule: each name resolved once per
 * call, as the call's pipelines run in sequence. Admission still makes every decision
 * (core's exec check resolves again on the trusted `PATH` for a restricted grant).
 */
export function programLookup(searchPath: string): ProgramLookup {
  const found = new Map<string, Promise<string | undefined>>();
  return (name) => {
    let pending = found.get(name);
    if (pending === undefined) {
      pending = resolveOnSearchPath(name, searchPath);
      found.set(name, pending);
    }
    return pending;
  };
}
