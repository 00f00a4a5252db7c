import type { Code } from "../codes/codes.js";
import { checkContained } from "./check-contained.js";
import type { PathReadings } from "./path-readings.js";
import type { ResolvedEntry } from "./resolve-entries.js";

export type AreaDecision =
  | { readonly ok: true; readonly root: string }
  | {
      readonly ok: false;
      readonly code: Extract<Code, "FS_OUTSIDE_ALLOWED" | "FS_SYMLINK_ESCAPE">;
      readonly detail: string | undefined;
    };

const DISAGREE =
  "the two readings of '..' after a symbolic link (physical, as POSIX opens it, and lexical, as Windows does) disagree: one is inside, one outside";

/**
 * Whether a path lies within an area given as resolved entries (a grant's scope or a
 * tool's allowed paths), by both readings of its real location. Both inside: allowed, with
 * `root` the outermost matching entry's real location (the mediated open walks from the
 * file system root anyway). Readings disagreeing: `FS_SYMLINK_ESCAPE`. Both outside:
 * `FS_SYMLINK_ESCAPE` when the path as spelled lies inside (a link led it out), else
 * `FS_OUTSIDE_ALLOWED`.
 */
export function checkArea(
  resolved: readonly ResolvedEntry[],
  readings: PathReadings,
): AreaDecision {
  const roots = resolved
    .map((entry) => entry.real)
    .filter((real) => checkContained(readings.physical.real, real))
    .sort((a, b) => a.length - b.length);
  const lexicalInside = resolved.some((entry) => checkContained(readings.lexical.real, entry.real));
  const root = roots[0];
  if (root !== undefined && lexicalInside) return { ok: true, root };
  if (root !== undefined || lexicalInside) {
    return { ok: false, code: "FS_SYMLINK_ESCAPE", detail: DISAGREE };
  }
  const spelledInside = resolved.some(
    (entry) =>
      checkContained(readings.spelled, entry.spelled) ||
      checkContained(readings.spelled, entry.real),
  );
  return spelledInside
    ? { ok: false, code: "FS_SYMLINK_ESCAPE", detail: undefined }
    : { ok: false, code: "FS_OUTSIDE_ALLOWED", detail: undefined };
}
