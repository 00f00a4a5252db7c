import path from "node:path";
import type { Code } from "../codes/codes.js";
import { isPlainPathText, MAX_PATH_TEXT_LENGTH } from "./path-text.js";

export type AbsolutePathDecision =
  | { readonly ok: true; readonly value: string }
  | {
      readonly ok: false;
      readonly code: Extract<Code, "FS_INVALID_PATH" | "FS_NO_BASE_DIR" | "FS_PATH_TOO_LONG">;
    };

/**
 * The absolute spelling of a requested path, `.` and `..` left in place (they are read
 * later, both physically and lexically). A relative path is joined to an explicit
 * absolute `baseDir`, never to the process's working directory: without one it is
 * refused. The join is textual, so `..` at the start of a relative path still goes
 * through whatever links `baseDir` holds.
 */
export function checkAbsolutePath(
  requested: string,
  baseDir: string | undefined,
): AbsolutePathDecision {
  if (!isPlainPathText(requested)) return { ok: false, code: "FS_INVALID_PATH" };
  if (requested.length > MAX_PATH_TEXT_LENGTH) return { ok: false, code: "FS_PATH_TOO_LONG" };
  if (path.isAbsolute(requested)) return { ok: true, value: requested };
  if (baseDir === undefined || !isPlainPathText(baseDir) || !path.isAbsolute(baseDir)) {
    return { ok: false, code: "FS_NO_BASE_DIR" };
  }
  const joined = baseDir.endsWith(path.sep) ? baseDir + requested : baseDir + path.sep + requested;
  if (joined.length > MAX_PATH_TEXT_LENGTH) return { ok: false, code: "FS_PATH_TOO_LONG" };
  return { ok: true, value: joined };
}
