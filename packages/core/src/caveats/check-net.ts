import { createDenial, type Denial } from "../envelope/denial.js";
import type { Scope } from "./scope.js";

export type NetDecision = { readonly ok: true } | { readonly ok: false; readonly denial: Denial };

/** Exact membership of the host string: no suffix or wildcard matching, no port parsing. */
export function checkNet(scope: Scope<string>, host: string): NetDecision {
  if (scope === "all" || scope.only.includes(host)) return { ok: true };
  return {
    ok: false,
    denial: createDenial(
      "net",
      host,
      "NET_NOT_GRANTED",
      `network access to ${JSON.stringify(host)} is not within the granted authority`,
    ),
  };
}
