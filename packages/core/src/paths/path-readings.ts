import type { Code } from "../codes/codes.js";
import { type FileIdentity, resolveRealLocation } from "./real-location.js";
import { hasDotSegment, removeDotSegments } from "./remove-dot-segments.js";

export interface ResolvedReading {
  readonly real: string;
  readonly exists: boolean;
  readonly directory: boolean;
  readonly identity: FileIdentity | undefined;
}

/** The three locations a path is judged at. */
export interface PathReadings {
  /** Dot segments removed as text, links not followed: where the path says it is. */
  readonly spelled: string;
  /** Links followed, `..` after a link read physically (POSIX: the target's parent). */
  readonly physical: ResolvedReading;
  /** Dot segments removed first, then links followed (Windows: `link/..` holds the link). */
  readonly lexical: ResolvedReading;
}

export type PathReadingsDecision =
  | { readonly ok: true; readonly value: PathReadings }
  | { readonly ok: false; readonly code: Code; readonly detail: string };

/**
 * Reads an absolute path both ways an OS reads it. Either reading failing to resolve
 * (dangling link, loop, missing ancestor...) refuses the path. Without a `..` segment
 * the two readings are the same and the path is resolved once.
 */
export async function readPathLocations(absolute: string): Promise<PathReadingsDecision> {
  const spelled = removeDotSegments(absolute);
  const physical = await resolveRealLocation(absolute);
  if (!physical.ok) return physical;
  const lexical = hasDotSegment(absolute) ? await resolveRealLocation(spelled) : physical;
  if (!lexical.ok) return lexical;
  return { ok: true, value: { spelled, physical, lexical } };
}
