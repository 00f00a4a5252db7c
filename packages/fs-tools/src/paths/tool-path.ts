import path from "node:path";
import { isPlainPathText, removeDotSegments } from "@agent-bridle/core";

/**
 * The location the tools judge and open for a requested path: made absolute against the
 * configured base directory (never the host's working directory), then `.` and `..`
 * removed as text, as the seed says (`data/link/../x` is `data/x`), so the physical and
 * lexical readings agree. A path that is not plain text (NUL, control characters) or is
 * relative with no base is returned unchanged, so the judge refuses it as it is
 * (`FS_INVALID_PATH`, `FS_NO_BASE_DIR`): nothing is removed from a path before it is
 * known to be plain text.
 */
export function toolPath(requested: string, baseDir: string | undefined): string {
  if (!isPlainPathText(requested)) return requested;
  if (path.isAbsolute(requested)) return removeDotSegments(requested);
  if (baseDir === undefined) return requested;
  return removeDotSegments(`${baseDir}${path.sep}${requested}`);
}
