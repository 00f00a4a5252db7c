import { lstatSync, realpathSync } from "node:fs";
import path from "node:path";
import { fsErrorCode } from "./fs-error-code.js";
import { hasDotSegment } from "./remove-dot-segments.js";

/** Whether the name exists (a link counts, dangling or not); `undefined` on other errors. */
function tryExists(name: string): boolean | undefined {
  try {
    return lstatSync(name, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    return fsErrorCode(error) === "ENOTDIR" ? false : undefined;
  }
}

/**
 * The real location of a blocked-path entry, synchronously: the entry itself when it
 * exists, else its deepest existing ancestor's real location with the missing tail
 * re-appended; `undefined` when that cannot be known (a loop, a missing entry spelled
 * with `..`). A policy has a few dozen entries and the judge re-reads them on every call
 * (always current): in-process `realpath` calls cost a few microseconds each, where one
 * thread-pool round trip per probe cost more than the rest of the judgement.
 */
export function entryRealLocation(entry: string): string | undefined {
  const tail: string[] = [];
  let current = entry;
  for (;;) {
    // Most entries of a default policy do not exist: ask without an exception first.
    const present = tryExists(current);
    if (present === undefined) return undefined;
    if (present) {
      try {
        const real = realpathSync.native(current);
        return tail.length === 0 ? real : path.join(real, ...tail.reverse());
      } catch (error) {
        const errno = fsErrorCode(error);
        if (errno !== "ENOENT" && errno !== "ENOTDIR") return undefined;
      }
    }
    if (hasDotSegment(entry)) return undefined;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    tail.push(path.basename(current));
    current = parent;
  }
}
