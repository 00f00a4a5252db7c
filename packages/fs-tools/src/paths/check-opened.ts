import type { BigIntStats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { JudgedPath } from "@agent-bridle/core";
import { isOpenedAt } from "./descriptor-location.js";
import { CHANGED, type FileRefusal, unfollowedLink } from "./file-refusal.js";
import { describeFileType, fileTypeOf } from "./file-type.js";
import { checkFinalName } from "./final-link.js";

export type OpenedCheck =
  | { readonly ok: true; readonly stats: BigIntStats }
  | { readonly ok: false; readonly refusal: FileRefusal };

async function refusalFor(
  judged: JudgedPath,
  stats: BigIntStats,
  options: OpenedKindOptions,
): Promise<FileRefusal | undefined> {
  if (!options.followSymlinks) {
    const finalName = await checkFinalName(judged, stats);
    if (finalName === "link") {
      return unfollowedLink(
        options.expect === "file"
          ? "use the path of the file it points to"
          : "list the directory it points to by that directory's own path",
      );
    }
    if (finalName === "changed") return CHANGED;
  }
  const type = fileTypeOf(stats);
  if (type === options.expect) return undefined;
  if (options.expect === "directory") {
    return {
      code: "FS_NOT_REGULAR",
      explanation: `it is ${describeFileType(type)}, not a directory; use file_info or read_file for a file, or list its parent directory`,
    };
  }
  const instead =
    type === "directory"
      ? "use list_directory to see its entries"
      : "only regular files can be read or written";
  return {
    code: "FS_NOT_REGULAR",
    explanation: `it is ${describeFileType(type)}, not a regular file; ${instead}`,
  };
}

export interface OpenedKindOptions {
  readonly followSymlinks: boolean;
  readonly expect: "file" | "directory";
}

/**
 * Whether an opened descriptor may be used as the file the path names, with its stats:
 * it must really be at the judged real location (asked of the kernel where it can be, see
 * `isOpenedAt`); with `followSymlinks` false, the path must not end in a link (and must
 * still name the opened file); and the file must be of the wanted kind (`expect`).
 */
export async function checkOpened(
  handle: FileHandle,
  judged: JudgedPath,
  options: OpenedKindOptions,
): Promise<OpenedCheck> {
  const [stats, where] = await Promise.all([
    handle.stat({ bigint: true }),
    isOpenedAt(handle, judged.real),
  ]);
  const refusal = where ? await refusalFor(judged, stats, options) : CHANGED;
  return refusal === undefined ? { ok: true, stats } : { ok: false, refusal };
}

/**
 * Closes a descriptor that was only read, without waiting for the close (a read-only
 * close has nothing to report); it keeps the close off the call's latency.
 */
export function releaseReadOnly(handle: FileHandle): void {
  handle.close().catch(() => undefined);
}
