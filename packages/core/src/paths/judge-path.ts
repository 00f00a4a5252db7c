import type { Scope } from "../caveats/scope.js";
import type { Denial } from "../envelope/denial.js";
import { checkAbsolutePath } from "./absolute-path.js";
import { checkBlocked } from "./blocked-match.js";
import { checkArea } from "./check-area.js";
import { describeFsError } from "./fs-error-code.js";
import { GIT_LINK_FILE_ENTRY, isGitLinkFile } from "./git-link-file.js";
import { createPathDenial, type PathDenialContext } from "./path-denial.js";
import type { PathOperation, PathPolicy } from "./path-policy.js";
import { type PathReadings, readPathLocations } from "./path-readings.js";
import type { FileIdentity } from "./real-location.js";
import { resolveEntries } from "./resolve-entries.js";
import { resolvePathPolicy } from "./resolve-path-policy.js";

export interface JudgePathRequest {
  readonly path: string;
  /** Absolute directory a relative `path` resolves against; without it a relative path is refused. */
  readonly baseDir?: string | undefined;
  readonly op: PathOperation;
  /** The grant's `fs_read` or `fs_write` scope (per `op`). */
  readonly scope: Scope<string>;
  /** The tool's allowed paths (`undefined`: any path the scope allows; `[]`: none). */
  readonly allowed?: readonly string[] | undefined;
  readonly policy: PathPolicy;
}

/** A path that was judged allowed, and where it really is. */
export interface JudgedPath {
  /** As the caller sent it. */
  readonly requested: string;
  /** Absolute, `.` and `..` removed as text, links not followed. */
  readonly absolute: string;
  /** The real location (links followed, `..` read physically): what the mediated open opens. */
  readonly real: string;
  /** Real location of the outermost scope or allowed entry holding `real`; `undefined` when unrestricted. */
  readonly root: string | undefined;
  readonly exists: boolean;
  /** Whether it is an existing directory (seen by the same lookup as `identity`). */
  readonly directory: boolean;
  /** Device and inode of the existing file when judged; `undefined` for a new file. */
  readonly identity: FileIdentity | undefined;
}

export type PathDecision =
  | { readonly ok: true; readonly value: JudgedPath }
  | { readonly ok: false; readonly denial: Denial };

function deny(context: PathDenialContext, code: Parameters<typeof createPathDenial>[0]) {
  return { ok: false, denial: createPathDenial(code, context) } as const;
}

async function checkBlockedReadings(request: JudgePathRequest, readings: PathReadings) {
  const policy = await resolvePathPolicy(request.policy);
  const locations = new Set([readings.physical.real, readings.lexical.real, readings.spelled]);
  for (const location of locations) {
    const decision = checkBlocked(policy, location, request.op);
    if (decision.blocked) return decision.entry;
    if (request.op === "write" && isGitLinkFile(location)) return GIT_LINK_FILE_ENTRY;
  }
  return undefined;
}

async function judge(request: JudgePathRequest): Promise<PathDecision> {
  const context = { operation: request.op, requested: request.path };
  const absolute = checkAbsolutePath(request.path, request.baseDir);
  if (!absolute.ok) return deny(context, absolute.code);
  // The path and the areas' entries are resolved together (independent lookups).
  const areaEntries = [
    ["scope", request.scope === "all" ? undefined : request.scope.only],
    ["allowed", request.allowed],
  ] as const;
  const [readings, ...areas] = await Promise.all([
    readPathLocations(absolute.value),
    ...areaEntries.map(async ([area, entries]) => ({
      area,
      resolved: entries === undefined ? undefined : await resolveEntries(entries),
    })),
  ]);
  if (!readings.ok) return deny({ ...context, detail: readings.detail }, readings.code);
  const { physical } = readings.value;
  const resolved = { ...context, resolved: physical.real };
  const roots: string[] = [];
  for (const { area, resolved: entries } of areas) {
    if (entries === undefined) continue;
    const decision = checkArea(entries, readings.value);
    if (!decision.ok) return deny({ ...resolved, area, detail: decision.detail }, decision.code);
    roots.push(decision.root);
  }
  const blockedBy = await checkBlockedReadings(request, readings.value);
  if (blockedBy !== undefined) return deny({ ...resolved, detail: blockedBy }, "FS_BLOCKED");
  const root = roots.sort((a, b) => a.length - b.length)[0];
  const value: JudgedPath = Object.freeze({
    requested: request.path,
    absolute: readings.value.spelled,
    real: physical.real,
    root,
    exists: physical.exists,
    directory: physical.directory,
    identity: physical.identity,
  });
  return { ok: true, value };
}

/**
 * Judges a path for an operation, by where it really is (seed
 * `fs-tools-file-config.txt`, spec §3): plain text; absolute, or relative to an explicit
 * `baseDir`; every link resolved (dangling, looping or unresolvable paths refused);
 * `..` after a link read physically and lexically, both readings required inside; then
 * the grant's scope, then the tool's allowed paths (both `FS_OUTSIDE_ALLOWED`, or
 * `FS_SYMLINK_ESCAPE` when a link leads out), then the blocked entries (`FS_BLOCKED`,
 * blocked wins; write-only entries for writes, and a write of a `.git` file). Fails
 * closed: an unexpected exception is a `FS_CANNOT_RESOLVE` denial, never an allow.
 */
export async function judgePath(request: JudgePathRequest): Promise<PathDecision> {
  try {
    return await judge(request);
  } catch (error) {
    const context = { operation: request.op, requested: String(request.path) };
    return deny({ ...context, detail: describeFsError(error) }, "FS_CANNOT_RESOLVE");
  }
}
