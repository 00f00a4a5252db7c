/** Bash's wording for system errors and for refusals by the interpreter's gate. */
import type { GateRefusal } from "@agent-bridle/coreutils";

const TEXT: Readonly<Record<string, string>> = {
  ENOENT: "No such file or directory",
  EACCES: "Permission denied",
  EPERM: "Operation not permitted",
  EISDIR: "Is a directory",
  ENOTDIR: "Not a directory",
  ENOSPC: "No space left on device",
  EBADF: "Bad file descriptor",
  EEXIST: "File exists",
  ELOOP: "Too many levels of symbolic links",
  ENAMETOOLONG: "File name too long",
  EROFS: "Read-only file system",
  ETXTBSY: "Text file busy",
  EMFILE: "Too many open files",
  ENXIO: "No such device or address",
  EINVAL: "Invalid argument",
  EIO: "Input/output error",
  EDQUOT: "Disk quota exceeded",
};

/** The C library's text for a Node error code (`ENOENT` → `No such file or directory`). */
export function errnoText(code: string): string {
  return TEXT[code] ?? code;
}

/** A thrown Node error as bash words it. */
export function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === "string" && TEXT[code] !== undefined
    ? errnoText(code)
    : (error as Error).message;
}

/** A gate refusal: a policy denial reads as bash's permission error. */
export function refusalText(refusal: GateRefusal): string {
  return "denial" in refusal ? "Permission denied" : errnoText(refusal.errno);
}
