import { fsErrorCode } from "../paths/fs-error-code.js";

/**
 * The C library's texts (glibc, C locale) for the system errors a tool can meet: what
 * GNU's utilities and bash print after a file name. One table for every engine and
 * utility, so a failure reads the same whoever met it.
 */
const STRERROR: Readonly<Record<string, string>> = {
  EACCES: "Permission denied",
  EBADF: "Bad file descriptor",
  EDQUOT: "Disk quota exceeded",
  EEXIST: "File exists",
  EINVAL: "Invalid argument",
  EIO: "Input/output error",
  EISDIR: "Is a directory",
  ELOOP: "Too many levels of symbolic links",
  EMFILE: "Too many open files",
  ENAMETOOLONG: "File name too long",
  ENOENT: "No such file or directory",
  ENOSPC: "No space left on device",
  ENOTDIR: "Not a directory",
  ENXIO: "No such device or address",
  EPERM: "Operation not permitted",
  EROFS: "Read-only file system",
  ETXTBSY: "Text file busy",
};

/** The C library's text for a Node error code (`ENOENT` → `No such file or directory`); an unknown code is shown as it is. */
export function errnoText(code: string): string {
  return STRERROR[code] ?? code;
}

/** Whether the table has a text for this code. */
export function hasErrnoText(code: string): boolean {
  return STRERROR[code] !== undefined;
}

/** The Node error code of a thrown value (`EIO` when it carries none). */
export function errnoOf(error: unknown): string {
  return fsErrorCode(error) ?? "EIO";
}
