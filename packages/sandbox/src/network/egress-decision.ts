import { isIP } from "node:net";
import {
  canonicalHost,
  type NetHostPattern,
  netHostMatches,
  parseNetHostPattern,
} from "@agent-bridle/core";
import type { HostResolver } from "./host-resolver.js";

/** The grant's entries, parsed once per call (entries are validated with the grant). */
export function grantPatterns(entries: readonly string[]): readonly NetHostPattern[] {
  return entries.flatMap((entry) => {
    const parsed = parseNetHostPattern(entry);
    return parsed.ok ? [parsed.pattern] : [];
  });
}

export type EgressDecision =
  | {
      readonly allowed: true;
      readonly host: string;
      /** Where to connect, in order (the first that accepts). */
      readonly addresses: readonly string[];
    }
  | { readonly allowed: false; readonly host: string; readonly reason: string };

/**
 * Decides one connection (network.md §3): the host the client asked for, as a name or an
 * IP literal, against the grant; then the proxy's own resolution, refusing internal
 * addresses unless the matching entry names the address (or `localhost`) literally.
 */
export async function decideEgress(
  patterns: readonly NetHostPattern[],
  requested: string,
  port: number,
  resolver: HostResolver,
): Promise<EgressDecision> {
  const host = canonicalHost(requested);
  const shown = host ?? requested;
  const where = `${shown}:${port}`;
  if (host === undefined) {
    return {
      allowed: false,
      host: shown,
      reason: `${JSON.stringify(requested)} is not a host name`,
    };
  }
  const matching = patterns.filter((pattern) => netHostMatches(pattern, host, port));
  if (matching.length === 0) {
    return { allowed: false, host, reason: `${where} is not in the grant's net allow-list` };
  }
  const literal = matching.some(
    (pattern) => pattern.ipLiteral || (!pattern.wildcard && pattern.host === "localhost"),
  );
  let addresses: readonly string[];
  if (isIP(host) !== 0) addresses = [host];
  // `localhost` is both loopback addresses: a dev server may listen on either (ADR 0017).
  else if (host === "localhost") addresses = ["127.0.0.1", "::1"];
  else {
    try {
      addresses = await resolver.resolve(host);
    } catch {
      return { allowed: false, host, reason: `${host} does not resolve` };
    }
  }
  const usable = literal ? addresses : addresses.filter((address) => !resolver.isInternal(address));
  if (usable.length === 0) {
    return {
      allowed: false,
      host,
      reason: `${host} resolves to a loopback, private or metadata address; grant that address literally to reach it`,
    };
  }
  return { allowed: true, host, addresses: usable };
}
