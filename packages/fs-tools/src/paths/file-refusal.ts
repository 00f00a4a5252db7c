import type { Code } from "@agent-bridle/core";

/** A tool's own refusal, before it becomes a denial: its code and what to do instead. */
export interface FileRefusal {
  readonly code: Code;
  readonly explanation: string;
}

/** The refusal for a symbolic link as the last name when `followSymlinks` is false. */
export function unfollowedLink(instead: string): FileRefusal {
  return {
    code: "FS_NOT_REGULAR",
    explanation: `it is a symbolic link, and this tool does not follow a link that is the last name of a path (followSymlinks is false); ${instead}`,
  };
}

/** Something on the path changed between the judgement and its use. */
export const CHANGED: FileRefusal = {
  code: "FS_CHANGED_DURING_OPEN",
  explanation: "the path changed while it was being opened; nothing was used, retry",
};
