import path from "node:path";
import { createEntryResolver } from "./entry-real-location.js";
import type { PathPolicy } from "./path-policy.js";

const resolvedPolicies = new WeakSet<PathPolicy>();

function withRealLocations(
  entries: readonly string[],
  realLocation: (entry: string) => string | undefined,
): readonly string[] {
  const expanded = entries.map((entry) => {
    if (!path.isAbsolute(entry) || entry.includes("**")) return [entry];
    const real = realLocation(entry);
    return real !== undefined && real !== entry ? [entry, real] : [entry];
  });
  return Object.freeze([...new Set(expanded.flat())]);
}

/**
 * The policy with every absolute entry also present at its real location (blocking
 * `/etc` also blocks `/private/etc` on macOS; a blocked directory reached through a
 * link is blocked where it really is). The spelled entry is kept too. Entries that
 * cannot be resolved stay as spelled. The result is frozen and remembered, so
 * `judgePath` does not resolve it again: resolve once for a hot loop, or let the judge
 * resolve on every call (always current).
 */
export async function resolvePathPolicy(policy: PathPolicy): Promise<PathPolicy> {
  if (resolvedPolicies.has(policy)) return policy;
  const realLocation = createEntryResolver();
  const resolved: PathPolicy = Object.freeze({
    blocked: withRealLocations(policy.blocked, realLocation),
    writeBlocked: withRealLocations(policy.writeBlocked, realLocation),
  });
  resolvedPolicies.add(resolved);
  return resolved;
}

/** Whether the policy came from `resolvePathPolicy`. */
export function isResolvedPathPolicy(policy: PathPolicy): boolean {
  return resolvedPolicies.has(policy);
}
