import * as z from "zod";

/** Longest path text accepted as an argument (the judge's own limit; longer is invalid). */
export const MAX_PATH_ARGUMENT = 32_767;

/**
 * A path argument. Its content is judged by the tools (a NUL or control character is an
 * in-band `FS_INVALID_PATH` denial, an over-long name `FS_PATH_TOO_LONG`), so the schema
 * only bounds its length.
 */
export const PathArgumentSchema = z
  .string()
  .min(1)
  .max(MAX_PATH_ARGUMENT)
  .describe("Absolute path, or relative to the tool's base directory");

/** How a tool treats a relative path, for descriptions. */
export function relativePathsText(baseDir: string | undefined): string {
  return baseDir === undefined
    ? "Use absolute paths (no base directory is configured, so relative paths are refused)."
    : `Relative paths resolve against ${JSON.stringify(baseDir)}.`;
}

/** The shared closing of every description: what is reachable and what refusals mean. */
export const SCOPE_TEXT =
  "Only paths inside the granted scope and the configured allowed paths, and not blocked, can be reached; symbolic links are judged by where they really lead. A refusal comes back as `denied` with a reason saying what to do instead.";

export const READ_ONLY_ANNOTATIONS = Object.freeze({
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});
