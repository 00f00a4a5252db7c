import type { Caveats } from "@agent-bridle/core";

/** The grant's host allow-list (`net: { only: [hosts] }`, non-empty), or undefined. */
export function hostAllowList(caveats: Caveats): readonly string[] | undefined {
  return caveats.net !== "all" && caveats.net.only.length > 0 ? caveats.net.only : undefined;
}
