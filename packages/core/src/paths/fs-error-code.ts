/** The `code` of a Node system error (`ENOENT`, `ELOOP`...), or `undefined`. */
export function fsErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

/** An error code for a reason text: the errno name only, never a message. */
export function describeFsError(error: unknown): string {
  return fsErrorCode(error) ?? (error instanceof Error ? error.name : "unknown error");
}

/** Whether a lookup failed because nothing is there (`ENOENT`, or `ENOTDIR` on the way). */
export function isMissingError(error: unknown): boolean {
  const errno = fsErrorCode(error);
  return errno === "ENOENT" || errno === "ENOTDIR";
}
