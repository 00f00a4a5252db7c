import path from "node:path";
import { isPlainPathText } from "./path-text.js";
import { resolveRealLocation } from "./real-location.js";
import { removeDotSegments } from "./remove-dot-segments.js";

/** A scope or allowed-paths entry, as spelled (dot-free) and at its real location. */
export interface ResolvedEntry {
  readonly spelled: string;
  readonly real: string;
}

/**
 * Resolves authorising entries the way judged paths are resolved. An entry that is not
 * an absolute plain path, or that cannot be resolved (dangling, loop, no existing
 * ancestor), authorises nothing.
 */
export async function resolveEntries(entries: readonly string[]): Promise<ResolvedEntry[]> {
  const resolved = await Promise.all(
    entries.map(async (entry): Promise<ResolvedEntry | undefined> => {
      if (!isPlainPathText(entry) || !path.isAbsolute(entry)) return undefined;
      const location = await resolveRealLocation(entry);
      return location.ok ? { spelled: removeDotSegments(entry), real: location.real } : undefined;
    }),
  );
  return resolved.filter((entry): entry is ResolvedEntry => entry !== undefined);
}
