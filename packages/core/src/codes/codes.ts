/**
 * Every stable code a denial or a thrown error can carry: one string-literal union,
 * area prefix + SCREAMING_SNAKE. Removing or renaming a code is a breaking change;
 * the full list is pinned by a literal test. Each code's cause and remedy is in
 * `CODE_DOCS` (and `packages/core/denials/README.md`, generated and drift-checked).
 */
export const CODE_DOCS = {
  // registry-level refusals (thrown)
  TOOL_NOT_FOUND: "No tool of that name is registered. Call one of the advertised tools.",
  BUDGET_EXHAUSTED:
    "The grant's call budget (max_calls) is spent or was zero. Ask the host for a new grant.",
  GENERATION_INVALID:
    "The grant is not valid for the registry's generation. Ask the host for a current grant.",
  INVALID_ARGUMENTS:
    "The arguments do not match the tool's input schema; the message names the field and the limit.",
  REGISTRY_CLOSED: "The registry was closed; no further calls are accepted.",
  APPROVAL_REFUSED: "The host's approval hook refused the call before anything ran (not charged).",
  // configuration and programmer errors (thrown)
  CONFIG_INVALID_CAVEATS:
    "A grant (Caveats) failed validation: six required fields, exact JSON shape. Fix the grant; an invalid grant never means 'all'.",
  CONFIG_INVALID_OPTION: "A constructor or configuration option is invalid. Fix the host's setup.",
  TOOL_FAILED:
    "The tool ran and failed (an I/O or internal error after admission). The call was charged.",
  // exec axis
  EXEC_NOT_GRANTED:
    "The program is not within the granted exec authority (spelled and resolved identity, basename rule). Use a granted program by its bare name.",
  // net axis
  NET_NOT_GRANTED: "The host is not within the granted net authority (exact host names only).",
  NET_HOST_NOT_GRANTED:
    "A spawned program's connection was refused by the egress proxy: the host and port are not in the grant's net allow-list, or the name resolves to a loopback, private or metadata address. Use a granted host, or ask the host to add this one to net.only.",
  // filesystem axes
  FS_OUTSIDE_ALLOWED:
    "The path's real location is outside the granted fs scope or the tool's allowed paths. Use a path inside them.",
  FS_BLOCKED:
    "The path's real location is a blocked system or credential location. It cannot be reached.",
  FS_SYMLINK_ESCAPE:
    "A symbolic link on the path leads outside the allowed area, or the two readings of '..' after a link disagree.",
  FS_DANGLING_LINK:
    "A symbolic link on the path cannot be resolved (dangling). Use the target path instead.",
  FS_INVALID_PATH: "The path is empty or contains a NUL or control character. Send a plain path.",
  FS_LINK_LOOP: "Resolving the path met a loop of symbolic links.",
  FS_PATH_TOO_LONG: "The path is longer than the system allows.",
  FS_NO_BASE_DIR:
    "A relative path was given but no base directory (request cwd or configured baseDir) exists. Send an absolute path.",
  FS_NOT_FOUND: "Nothing exists at the path (or its parent directory is missing).",
  FS_CANNOT_RESOLVE:
    "The path could not be resolved to a real location (for example a missing ancestor).",
  FS_CHANGED_DURING_OPEN:
    "The file opened is not the one judged (a component was replaced between the check and the open). Retry.",
  FS_ALREADY_EXISTS:
    "An exclusive create was asked and something already exists at the path. Choose a new name.",
  FS_TOO_LARGE: "The file is larger than the configured limit. Read a line or byte range instead.",
  FS_NOT_REGULAR:
    "The path is not a regular file (a directory, device, socket or an unfollowed link).",
  FS_EDIT_NOT_FOUND:
    "An edit's old text does not occur in the file, so nothing was written. Read the file and copy the text exactly, whitespace included.",
  FS_EDIT_NOT_UNIQUE:
    "An edit's old text occurs more than once in the file, so nothing was written. Include more surrounding lines to make it unique.",
  // shell scripts (parse and admission)
  SHELL_PARSE_ERROR:
    "The script is malformed or holds invisible or control characters. Send plain, complete shell text.",
  SHELL_UNSUPPORTED_CONSTRUCT:
    "The script uses a construct this engine does not interpret exactly like bash, so it is refused rather than reinterpreted. Rewrite it with the accepted subset.",
  SHELL_DYNAMIC_CONSTRUCT:
    "The script computes what it runs (substitution, eval-like builtins). The engine refuses it; the inspection, when attached, shows what it would run.",
  SHELL_LIMIT_EXCEEDED:
    "The script exceeds a size, word or command-count limit. Split it into smaller calls.",
  // enforcement strength
  ENFORCEMENT_BELOW_FLOOR:
    "A restricted axis would be enforced below the required strength on this host (no kernel backend). Ask for an unrestricted axis or run where the backend exists.",
  ENGINE_UNAVAILABLE: "The engine cannot serve this grant on this host.",
  // resource limits of a call (in a run envelope: the output and exit code are kept)
  LIMIT_EXCEEDED:
    "A program the call ran hit one of the call's resource limits, named by the target (memory: the whole tree's memory, the kernel killed a process; processes: no more processes could start; file_size: a write past the largest file allowed failed). Do the work in smaller pieces: stream instead of loading everything, start fewer processes at once, write smaller files.",
} as const;

export type Code = keyof typeof CODE_DOCS;

export const CODES = Object.freeze(Object.keys(CODE_DOCS) as Code[]);

export function isCode(value: unknown): value is Code {
  return typeof value === "string" && Object.hasOwn(CODE_DOCS, value);
}
