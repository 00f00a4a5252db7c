import { constants } from "node:fs";
import { type FileHandle, lstat, open, readlink } from "node:fs/promises";
import type { Code } from "../codes/codes.js";
import type { Denial } from "../envelope/denial.js";
import { checkContained } from "./check-contained.js";
import { describeFsError, fsErrorCode } from "./fs-error-code.js";
import type { JudgedPath } from "./judge-path.js";
import { createPathDenial } from "./path-denial.js";
import { sameFile } from "./same-file.js";
import { type WalkDecision, walkDirectories } from "./walk-directories.js";

// Not defined on Windows: there the open falls back to check-then-open (no component
// walk guarantee for the last name), as the reference does on non-Unix.
const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_APPEND } = constants;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

export interface WriteOpenOptions {
  /** Append instead of replacing the contents (default: replace). */
  readonly append?: boolean | undefined;
  /** Create the file when it does not exist (default: true). */
  readonly create?: boolean | undefined;
  /** Refuse when the file already exists (default: false). */
  readonly exclusive?: boolean | undefined;
  /** Permission bits of a created file, before the umask (default: 0o666). */
  readonly mode?: number | undefined;
}

export type OpenMode = { readonly op: "read" } | ({ readonly op: "write" } & WriteOpenOptions);

export interface OpenedPath {
  readonly handle: FileHandle;
  readonly path: JudgedPath;
}

export type OpenDecision =
  | { readonly ok: true; readonly value: OpenedPath }
  | { readonly ok: false; readonly denial: Denial };

type Refusal = {
  readonly code: Code;
  readonly detail: string;
  readonly explanation?: string | undefined;
};

const ESCAPED = "it escaped the granted scope during resolution";
const ALREADY_EXISTS: Refusal = {
  code: "FS_ALREADY_EXISTS",
  detail: "EEXIST",
  explanation: "it already exists and an exclusive create was asked; choose a new name",
};
const NAME_CHANGED: Refusal = {
  code: "FS_CHANGED_DURING_OPEN",
  detail: "the path no longer names the opened file",
};
type Plan = { readonly flags: number; readonly truncate: boolean };

function walkRefusal(walked: WalkDecision & { ok: false }): Refusal {
  const escaped = `${ESCAPED} (a directory became a link after the check)`;
  return {
    code: walked.code,
    detail: walked.code === "FS_SYMLINK_ESCAPE" ? escaped : walked.detail,
  };
}

/**
 * Open flags. The last name is never followed (`O_NOFOLLOW`). `O_NONBLOCK` so opening
 * a FIFO cannot hang the host (a read end opens at once, a write end without a reader
 * fails with ENXIO); it has no effect on regular files, and file-type policy is left to
 * callers (check `handle.stat()`). A file judged missing is created exclusively, so a
 * name planted meanwhile (a link to elsewhere) fails instead of being followed. An
 * existing file is truncated only after it is proven to be the judged one.
 */
function plan(judged: JudgedPath, mode: OpenMode): Plan | Refusal {
  if (mode.op === "read") return { flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK, truncate: false };
  if (judged.exists && mode.exclusive === true) return ALREADY_EXISTS;
  if (!judged.exists && mode.create === false) return { code: "FS_NOT_FOUND", detail: "ENOENT" };
  const append = mode.append === true ? O_APPEND : 0;
  const create = judged.exists ? 0 : O_CREAT | O_EXCL;
  return {
    flags: O_WRONLY | O_NOFOLLOW | O_NONBLOCK | append | create,
    truncate: judged.exists && mode.append !== true,
  };
}

function openFailure(error: unknown, judged: JudgedPath): Refusal {
  const errno = fsErrorCode(error);
  const detail = describeFsError(error);
  if (errno === "ELOOP" || errno === "EMLINK") {
    return {
      code: "FS_SYMLINK_ESCAPE",
      detail: `${ESCAPED} (the file became a link after the check)`,
    };
  }
  if (errno === "EEXIST") return { code: "FS_CHANGED_DURING_OPEN", detail };
  if (errno === "ENOENT") {
    return { code: judged.exists ? "FS_CHANGED_DURING_OPEN" : "FS_NOT_FOUND", detail };
  }
  if (errno === "ENOTDIR") return { code: "FS_NOT_FOUND", detail };
  if (errno === "EISDIR" || errno === "ENXIO" || errno === "ENODEV") {
    return { code: "FS_NOT_REGULAR", detail };
  }
  if (errno === "ENAMETOOLONG") return { code: "FS_PATH_TOO_LONG", detail };
  return { code: "FS_CANNOT_RESOLVE", detail };
}

/**
 * Proves the open descriptor is the judged file, still under the judged name: same
 * device and inode as judged (an existing file), and as the name holds now. A file that
 * did not exist is also re-walked: a directory swapped for a link between the walk and
 * the open makes `lstat` of the name follow that link to the new file, so the walk must
 * see the link (or, swapped back, the name no longer holds the file).
 */
/**
 * Where the kernel says an open descriptor's file is (Linux `/proc/self/fd/N`), or
 * `undefined` where that is not available. This is the check that does not depend on
 * the judge's own name lookups, which a swap between them could mislead.
 */
async function kernelLocation(handle: FileHandle): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

async function verifyOpened(handle: FileHandle, judged: JudgedPath): Promise<Refusal | undefined> {
  // Three read-only questions, asked together (one thread-pool round trip, not three).
  const [opened, location, named] = await Promise.all([
    handle.stat({ bigint: true }),
    kernelLocation(handle),
    lstat(judged.real, { bigint: true }).catch(() => undefined),
  ]);
  if (judged.identity !== undefined && !sameFile(opened, judged.identity)) {
    return { code: "FS_CHANGED_DURING_OPEN", detail: "another file is at the path" };
  }
  if (location !== undefined && location !== judged.real) {
    // Say why when a link on the path explains it; otherwise the file moved.
    const walked = await walkDirectories(judged.real);
    if (!walked.ok) return walkRefusal(walked);
    return {
      code: "FS_CHANGED_DURING_OPEN",
      detail: "the descriptor is not at the judged location",
    };
  }
  if (named === undefined || named.isSymbolicLink() || !sameFile(named, opened))
    return NAME_CHANGED;
  // With the kernel's word on the location, an existing file is settled; without it
  // (no /proc), re-walk for existing files too: the judged identity may itself come
  // from a name lookup a swap misled.
  if (judged.identity !== undefined && location !== undefined) return undefined;
  const walked = await walkDirectories(judged.real);
  return walked.ok ? undefined : walkRefusal(walked);
}

async function openVerified(judged: JudgedPath, mode: OpenMode, chosen: Plan) {
  let handle: FileHandle | undefined;
  try {
    const permissions = mode.op === "write" ? (mode.mode ?? 0o666) : undefined;
    handle = await open(judged.real, chosen.flags, permissions);
    const refusal = await verifyOpened(handle, judged);
    if (refusal !== undefined) {
      await handle.close();
      return refusal;
    }
    if (chosen.truncate) await handle.truncate(0);
    return handle;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    return openFailure(error, judged);
  }
}

/**
 * Opens a path that was judged allowed, so that the file opened is the file judged:
 * every directory on its real path is checked to be a directory and not a link (a link
 * there was swapped in after the judgement: `FS_SYMLINK_ESCAPE`, "escaped the granted
 * scope during resolution"), the last name is opened with `O_NOFOLLOW`, then the
 * descriptor's device and inode are compared with what was judged and with what the
 * name holds now (`FS_CHANGED_DURING_OPEN` on a mismatch; the descriptor is closed).
 *
 * Residual race (narrowed, not closed): Node has no `openat`/`openat2`, so directories
 * are checked by name and the path is then opened by name. A directory swapped for a
 * link between the walk and the open redirects the open: an existing file is caught by
 * its inode; a new file is created at the link's target, then refused by the re-walk
 * (or by the name check if swapped back) and its descriptor closed, but the empty file
 * stays (removing it by name could hit another file). Only a sequence of swaps timed
 * around each check gets through. Hard links are not contained by any path check.
 */
export async function openJudgedPath(judged: JudgedPath, mode: OpenMode): Promise<OpenDecision> {
  const context = { operation: mode.op, requested: judged.requested, resolved: judged.real };
  const refuse = (refusal: Refusal) => ({
    ok: false as const,
    denial: createPathDenial(refusal.code, { ...context, ...refusal }),
  });
  if (judged.root !== undefined && !checkContained(judged.real, judged.root)) {
    return refuse({ code: "FS_CANNOT_RESOLVE", detail: "not beneath its root" });
  }
  const chosen = plan(judged, mode);
  if ("code" in chosen) return refuse(chosen);
  const walked = await walkDirectories(judged.real);
  if (!walked.ok) return refuse(walkRefusal(walked));
  const opened = await openVerified(judged, mode, chosen);
  if ("code" in opened) return refuse(opened);
  return { ok: true, value: Object.freeze({ handle: opened, path: judged }) };
}
