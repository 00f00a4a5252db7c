import { checkBlocked } from "./blocked-match.js";
import { checkContained } from "./check-contained.js";
import { GIT_LINK_FILE_ENTRY, isGitLinkFile } from "./git-link-file.js";
import type { PathArea } from "./path-denial.js";
import type { PathOperation, PathPolicy } from "./path-policy.js";
import type { ResolvedEntry } from "./resolve-entries.js";

/** Why a location is out of the judge's sight: outside an area, or blocked. */
export type SightFault =
  | { readonly kind: "outside"; readonly area: PathArea }
  | { readonly kind: "blocked"; readonly entry: string };

/** A restricted area (the grant's scope or the tool's allowed paths) and its entries. */
export interface SightArea {
  readonly area: PathArea;
  readonly entries: readonly ResolvedEntry[];
}

/**
 * What the judge may look at for one judgement (kernel-boundary.md §1 item 7: an answer
 * that differs between an existing and a missing path out of sight tells that it exists).
 * Decided from text alone, never by asking the file system.
 */
export interface PathSight {
  /** Where a path ends: inside every area (as spelled or at its real location), not blocked. */
  arriving(location: string): SightFault | undefined;
  /** A name a resolution passes through: also in sight when it lies on the way to an entry. */
  passing(location: string): SightFault | undefined;
}

function isInside(location: string, entries: readonly ResolvedEntry[]): boolean {
  return entries.some(
    (entry) => checkContained(location, entry.real) || checkContained(location, entry.spelled),
  );
}

function isOnTheWay(location: string, entries: readonly ResolvedEntry[]): boolean {
  return entries.some(
    (entry) => checkContained(entry.real, location) || checkContained(entry.spelled, location),
  );
}

/**
 * The sight of one judgement: areas first (in the order given, as the judge checks them),
 * then the blocked entries for the operation, then, for a write, the `.git` file rule.
 */
export function createPathSight(
  areas: readonly SightArea[],
  policy: PathPolicy,
  op: PathOperation,
): PathSight {
  const blocked = (location: string, last: boolean): SightFault | undefined => {
    const decision = checkBlocked(policy, location, op);
    if (decision.blocked) return { kind: "blocked", entry: decision.entry };
    if (last && op === "write" && isGitLinkFile(location)) {
      return { kind: "blocked", entry: GIT_LINK_FILE_ENTRY };
    }
    return undefined;
  };
  return {
    arriving(location) {
      for (const { area, entries } of areas) {
        if (!isInside(location, entries)) return { kind: "outside", area };
      }
      return blocked(location, true);
    },
    passing(location) {
      for (const { area, entries } of areas) {
        if (!isInside(location, entries) && !isOnTheWay(location, entries)) {
          return { kind: "outside", area };
        }
      }
      return blocked(location, false);
    },
  };
}
