/**
 * The interpreter writes redirect targets itself (`FileSink`), so under the launcher's
 * RLIMIT_FSIZE it is the worker's own write that runs past the limit. Node ignores
 * SIGXFSZ, so the write fails with `EFBIG` and the file stops at the limit; the failure
 * reaches the script as a write error, and the file's size tells the engine.
 */
import { fstatSync, readFileSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { GateOutcome } from "@agent-bridle/core";
import type { ShellAccess } from "../interpret/io/shell-access.js";

const LABEL = "Max file size";

/**
 * This process's soft RLIMIT_FSIZE in bytes, from `/proc/self/limits`; `undefined` when
 * unlimited or unreadable (off Linux).
 */
export function fileSizeLimitOf(limitsText: () => string): number | undefined {
  let text: string;
  try {
    text = limitsText();
  } catch {
    return undefined;
  }
  const line = text.split("\n").find((entry) => entry.startsWith(LABEL));
  const soft = line?.slice(LABEL.length).trim().split(/\s+/)[0] ?? "";
  const bytes = Number(soft);
  return /^\d+$/.test(soft) && Number.isSafeInteger(bytes) ? bytes : undefined;
}

export function ownFileSizeLimit(): number | undefined {
  return fileSizeLimitOf(() => readFileSync("/proc/self/limits", "utf8"));
}

export interface FileSizeWatch {
  readonly access: ShellAccess;
  /** Checks the files still open (an `exec >file` the script never closed). */
  finish(): void;
}

/**
 * `access` whose files opened for writing are checked against `limit` when closed (and
 * by `finish` if never closed): a regular file that reached the limit calls `onReached`.
 * A file that ends exactly at the limit without a write past it counts too.
 */
export function watchFileSizes(
  access: ShellAccess,
  limit: number,
  onReached: () => void,
): FileSizeWatch {
  const open = new Set<FileHandle>();
  const check = (handle: FileHandle) => {
    try {
      const stats = fstatSync(handle.fd);
      if (stats.isFile() && stats.size >= limit) onReached();
    } catch {
      // Already closed, or not a file any more: nothing to tell.
    }
  };
  const watched = async (
    opening: Promise<GateOutcome<FileHandle>>,
  ): Promise<GateOutcome<FileHandle>> => {
    const opened = await opening;
    if (!opened.ok) return opened;
    const handle = opened.value;
    const close = handle.close.bind(handle);
    open.add(handle);
    // The interpreter closes the handle it was given: the check runs just before.
    Object.defineProperty(handle, "close", {
      configurable: true,
      value: () => {
        if (open.delete(handle)) check(handle);
        return close();
      },
    });
    return opened;
  };
  const watching: ShellAccess = {
    ...access,
    openWrite: (path) => watched(access.openWrite(path)),
    openRedirect: (path, mode) => watched(access.openRedirect(path, mode)),
  };
  return {
    access: Object.freeze(watching),
    finish() {
      for (const handle of open) check(handle);
      open.clear();
    },
  };
}
