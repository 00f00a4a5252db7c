import type { Code } from "../codes/codes.js";
import { createDenial, type Denial } from "../envelope/denial.js";
import type { PathOperation } from "./path-policy.js";

/** Which restriction a path was judged against, named in the reason. */
export type PathArea = "scope" | "allowed";

export interface PathDenialContext {
  readonly operation: PathOperation;
  /** The path exactly as the caller sent it (the denial's target). */
  readonly requested: string;
  readonly area?: PathArea | undefined;
  /** The real location, when known. */
  readonly resolved?: string | undefined;
  /** A short technical detail: an errno name or a blocked entry, never file contents. */
  readonly detail?: string | undefined;
  /** Replaces the code's standard explanation (what was refused and what to do instead). */
  readonly explanation?: string | undefined;
}

const QUOTE_LIMIT = 256;

/** A caller string quoted for a reason, cut to a readable length. */
function quote(text: string): string {
  const cut = text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text;
  return JSON.stringify(cut);
}

function areaName(context: PathDenialContext): string {
  return context.area === "allowed"
    ? "tool's allowed paths"
    : `granted fs_${context.operation} scope`;
}

function refusal(code: Code, context: PathDenialContext): string {
  if (context.explanation !== undefined) return context.explanation;
  const area = areaName(context);
  const detail = context.detail === undefined ? "" : ` (${context.detail})`;
  switch (code) {
    case "FS_INVALID_PATH":
      return "the path is empty or contains a NUL or control character; send a plain path";
    case "FS_NO_BASE_DIR":
      return "the path is relative and no absolute base directory was given; send an absolute path";
    case "FS_OUTSIDE_ALLOWED":
      return `it is not within the ${area}; use a path inside it`;
    case "FS_SYMLINK_ESCAPE":
      return `${context.detail ?? `a symbolic link on the path leads outside the ${area}`}; use a path whose real location is inside the ${area}`;
    case "FS_DANGLING_LINK":
      return "a symbolic link on the path points to nothing (dangling); use a path that does not go through the dangling link";
    case "FS_LINK_LOOP":
      return "resolving the path met a loop of symbolic links; use a path without the loop";
    case "FS_PATH_TOO_LONG":
      return "the path (or one of its names) is longer than the system allows; use a shorter path";
    case "FS_BLOCKED":
      return `it is a blocked location${detail} that no grant reaches; use another path`;
    case "FS_CHANGED_DURING_OPEN":
      return `the file changed between the check and the open${detail}; nothing was used, retry`;
    case "FS_NOT_FOUND":
      return `nothing exists there or its parent directory is missing${detail}; check the path`;
    case "FS_NOT_REGULAR":
      return `it is not a regular file${detail}; use a regular file`;
    default:
      return `the path could not be resolved to a real location${detail}; send an absolute path to an existing directory, without '.' or '..' after a missing name`;
  }
}

/**
 * A path denial (kind `open`, target = the path as requested) whose reason says what
 * was refused and what to do instead. Caller strings are quoted (JSON, cut at 256
 * characters), never spliced; no file contents are ever included.
 */
export function createPathDenial(code: Code, context: PathDenialContext): Denial {
  const resolved = context.resolved === undefined ? "" : ` (resolved ${quote(context.resolved)})`;
  const subject = `${context.operation} of ${quote(context.requested)}${resolved}`;
  return createDenial("open", context.requested, code, `${subject}: ${refusal(code, context)}`);
}
