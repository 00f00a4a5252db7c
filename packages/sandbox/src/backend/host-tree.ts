import { readdirSync } from "node:fs";
import { matchBlockedEntry } from "@agent-bridle/core";

/** Top-level entries the private view makes itself (fresh `/proc`, minimal `/dev`, private `/tmp`). */
const VIEW_OWNED = new Set(["/proc", "/dev", "/tmp"]);

interface TopLevel {
  readonly at: number;
  readonly entries: readonly string[];
  /** The entries that are links (`/bin` → `usr/bin` on a merged-`/usr` system). */
  readonly links: readonly string[];
}

let cached: TopLevel | undefined;
const REFRESH_MS = 10_000;

/** The host's top-level entries (`/usr`, `/home`, …), listed at most every ten seconds. */
function topLevel(): TopLevel {
  const now = Date.now();
  if (cached === undefined || now - cached.at > REFRESH_MS || now < cached.at) {
    let found: { name: string; link: boolean }[] = [];
    try {
      found = readdirSync("/", { withFileTypes: true }).map((entry) => ({
        name: `/${entry.name}`,
        link: entry.isSymbolicLink(),
      }));
    } catch {}
    cached = {
      at: now,
      entries: Object.freeze(found.map((entry) => entry.name)),
      links: Object.freeze(found.filter((entry) => entry.link).map((entry) => entry.name)),
    };
  }
  return cached;
}

/**
 * The host's top-level links, which every view recreates (as links only: what they lead
 * to is shown only where granted), so `/bin/echo` names the same program as
 * `/usr/bin/echo` inside the view as outside.
 */
export function hostTopLevelLinks(): readonly string[] {
  return topLevel().links;
}

/**
 * What an axis granted `"all"` shows in the private view: every top-level entry of the
 * host that no blocked entry covers (so `/etc`, `/var`, `/sys`, `/boot` are absent under
 * the default policy; the runtime closure brings back the public parts of `/etc`).
 * `/tmp` is the call's own unless writes are granted everywhere.
 */
export function hostTreeShown(blocked: readonly string[], includeTmp: boolean): string[] {
  return topLevel().entries.filter(
    (entry) =>
      !(VIEW_OWNED.has(entry) && !(includeTmp && entry === "/tmp")) &&
      !blocked.some((block) => matchBlockedEntry(block, entry)),
  );
}
