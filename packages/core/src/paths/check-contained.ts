import path from "node:path";
import { hasDotSegment, trimTrailingSeparators } from "./remove-dot-segments.js";

/**
 * Whether `child` is `root` or lies beneath it, one path component at a time: `/srv/data`
 * contains `/srv/data` and `/srv/data/x`, never `/srv/data-secret/x` (not a string
 * prefix). Both are expected to be real locations (no links, no `.`/`..`); a path that
 * still has a `.` or `..` segment is never contained (fail closed: its meaning depends on
 * the links it crosses). Comparison is exact (case-sensitive): both sides come from
 * `realpath`, which spells existing components as the file system does.
 */
export function checkContained(child: string, root: string): boolean {
  if (hasDotSegment(child) || hasDotSegment(root)) return false;
  if (!path.isAbsolute(child) || !path.isAbsolute(root)) return false;
  const parent = trimTrailingSeparators(root);
  const candidate = trimTrailingSeparators(child);
  if (candidate === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return candidate.startsWith(prefix);
}
