import { type PathPolicy, resolvePathPolicy } from "@agent-bridle/core";

const resolved = new WeakMap<PathPolicy, WeakMap<PathPolicy, Promise<PathPolicy>>>();

function union(a: readonly string[], b: readonly string[]): readonly string[] {
  return Object.freeze([...new Set([...a, ...b])]);
}

/** The registry's policy and the tool's `FileConfig.blockedPaths` as one: an entry of either blocks. */
export function mergePolicies(context: PathPolicy, config: PathPolicy): PathPolicy {
  return Object.freeze({
    blocked: union(context.blocked, config.blocked),
    writeBlocked: union(context.writeBlocked, config.writeBlocked),
  });
}

/**
 * The merged policy with every absolute entry also at its real location (core's
 * `resolvePathPolicy`), resolved once per pair of policy objects and then reused:
 * resolving the default lists costs more than a whole small read, so it is not repeated
 * on every call. A blocked entry is therefore matched at its spelling and at the real
 * location it had when the tools first used it (a blocked directory that is replaced by a
 * link later is still blocked by name, not at the link's new target). A failed resolution
 * is not remembered.
 */
export function resolvedPolicy(context: PathPolicy, config: PathPolicy): Promise<PathPolicy> {
  let byConfig = resolved.get(context);
  if (byConfig === undefined) {
    byConfig = new WeakMap();
    resolved.set(context, byConfig);
  }
  const known = byConfig.get(config);
  if (known !== undefined) return known;
  const resolving = resolvePathPolicy(mergePolicies(context, config));
  byConfig.set(config, resolving);
  resolving.catch(() => byConfig.delete(config));
  return resolving;
}
