import { errnoText, hasErrnoText } from "@agent-bridle/core";

/** A thrown Node error as bash words it: the C library's text for its code, else its message. */
export function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === "string" && hasErrnoText(code)
    ? errnoText(code)
    : (error as Error).message;
}
