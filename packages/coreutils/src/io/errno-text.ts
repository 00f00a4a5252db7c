// GNU (glibc, C locale) strerror texts for the errors the utilities can meet.
const TEXTS: Readonly<Record<string, string>> = {
  EACCES: "Permission denied",
  EPERM: "Operation not permitted",
  ENOENT: "No such file or directory",
  ENOTDIR: "Not a directory",
  EISDIR: "Is a directory",
  ELOOP: "Too many levels of symbolic links",
  ENAMETOOLONG: "File name too long",
  EINVAL: "Invalid argument",
  EIO: "Input/output error",
  ENXIO: "No such device or address",
  EBADF: "Bad file descriptor",
  ENOSPC: "No space left on device",
  EROFS: "Read-only file system",
  EEXIST: "File exists",
  EMFILE: "Too many open files",
};

/** The GNU message for a Node error code; unknown codes are shown as they are. */
export function errnoText(code: string): string {
  return TEXTS[code] ?? code;
}

/** The Node error code of a thrown value (`EIO` when there is none). */
export function errnoOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "EIO";
}
