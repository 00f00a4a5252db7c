import { errnoOf } from "@agent-bridle/core";

const RACES = new Set(["ENOENT", "ENOTDIR", "ELOOP"]);

/**
 * Whether a system error during a write means the path changed under the call (a name
 * vanished, a directory became a file or a link): reported as `FS_CHANGED_DURING_OPEN`,
 * not as a tool failure. Any other error (no space, permission, I/O) is a real failure.
 */
export function isRaceError(error: unknown): boolean {
  return RACES.has(errnoOf(error));
}
