import { readdirSync } from "node:fs";

let cached: { readonly at: number; readonly links: readonly string[] } | undefined;
const REFRESH_MS = 10_000;

/**
 * The host's top-level links (`/bin` → `usr/bin` on a merged-`/usr` system), listed at
 * most every ten seconds. Every view recreates them (as links only: what they lead to is
 * shown only where granted), so `/bin/echo` names the same program inside the view as
 * `/usr/bin/echo` does.
 */
export function hostTopLevelLinks(): readonly string[] {
  const now = Date.now();
  if (cached === undefined || now - cached.at > REFRESH_MS || now < cached.at) {
    let links: string[] = [];
    try {
      links = readdirSync("/", { withFileTypes: true })
        .filter((entry) => entry.isSymbolicLink())
        .map((entry) => `/${entry.name}`);
    } catch {}
    cached = { at: now, links: Object.freeze(links) };
  }
  return cached.links;
}
