import type { Scope } from "../caveats/scope.js";
import type { Denial } from "../envelope/denial.js";
import { checkAbsolutePath } from "./absolute-path.js";
import { checkBlocked } from "./blocked-match.js";
import { checkArea } from "./check-area.js";
import { describeFsError } from "./fs-error-code.js";
import { GIT_LINK_FILE_ENTRY, isGitLinkFile } from "./git-link-file.js";
import { createPathDenial, type PathArea, type PathDenialContext } from "./path-denial.js";
import type { PathOperation, PathPolicy } from "./path-policy.js";
import {
  type PathReadings,
  type PathReadingsDecision,
  readPathLocations,
} from "./path-readings.js";
import { createPathSight, type PathSight, type SightFault } from "./path-sight.js";
import type { FileIdentity } from "./real-location.js";
import { hasDotSegment, removeDotSegments } from "./remove-dot-segments.js";
import { type ResolvedEntry, resolveEntries } from "./resolve-entries.js";
import { resolvePathPolicy } from "./resolve-path-policy.js";
import { walkInSight } from "./walk-in-sight.js";

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

function checkBlockedReadings(
  policy: PathPolicy,
  op: JudgePathRequest["op"],
  readings: PathReadings,
) {
  const locations = new Set([readings.physical.real, readings.lexical.real, readings.spelled]);
  for (const location of locations) {
    const decision = checkBlocked(policy, location, op);
    if (decision.blocked) return decision.entry;
    if (op === "write" && isGitLinkFile(location)) return GIT_LINK_FILE_ENTRY;
  }
  return undefined;
}

type Areas = readonly { readonly area: PathArea; readonly entries: readonly ResolvedEntry[] }[];

/** The judgement by where the path really is (before asking what was in sight). */
function decide(
  request: JudgePathRequest,
  readings: PathReadingsDecision,
  areas: Areas,
  policy: PathPolicy,
): PathDecision {
  const context = { operation: request.op, requested: request.path };
  if (!readings.ok) return deny({ ...context, detail: readings.detail }, readings.code);
  const { physical } = readings.value;
  const resolved = { ...context, resolved: physical.real };
  const roots: string[] = [];
  for (const { area, entries } of areas) {
    const decision = checkArea(entries, readings.value);
    if (!decision.ok) return deny({ ...resolved, area, detail: decision.detail }, decision.code);
    roots.push(decision.root);
  }
  const blockedBy = checkBlockedReadings(policy, request.op, readings.value);
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
 * The one answer for a path out of sight, the same whatever is there: no real location,
 * no detail from the file system. Spelled outside an area, `FS_OUTSIDE_ALLOWED`; led out
 * of it by a link, `FS_SYMLINK_ESCAPE`; blocked, `FS_BLOCKED` with the entry.
 */
function denyUnseen(request: JudgePathRequest, fault: SightFault, spelled: boolean) {
  const context = { operation: request.op, requested: request.path };
  if (fault.kind === "blocked") return deny({ ...context, detail: fault.entry }, "FS_BLOCKED");
  const code = spelled ? "FS_OUTSIDE_ALLOWED" : "FS_SYMLINK_ESCAPE";
  return deny({ ...context, area: fault.area }, code);
}

/** Where a walk of the path in sight stops first: physically, then lexically. */
async function walkReadings(absolute: string, spelled: string, sight: PathSight) {
  const physical = await walkInSight(absolute, sight);
  if (physical !== undefined || !hasDotSegment(absolute)) return physical;
  return walkInSight(spelled, sight);
}

/** Whether a resolution that ended in sight may have passed out of it on the way. */
function mayHavePassed(absolute: string, spelled: string, readings: PathReadings): boolean {
  return (
    hasDotSegment(absolute) ||
    readings.physical.real !== spelled ||
    readings.lexical.real !== spelled
  );
}

async function judge(request: JudgePathRequest): Promise<PathDecision> {
  const context = { operation: request.op, requested: request.path };
  const absolute = checkAbsolutePath(request.path, request.baseDir);
  if (!absolute.ok) return deny(context, absolute.code);
  // The path, the policy and the areas' entries are resolved together (independent lookups).
  const areaEntries = [
    ["scope", request.scope === "all" ? undefined : request.scope.only],
    ["allowed", request.allowed],
  ] as const;
  const [readings, policy, ...resolvedAreas] = await Promise.all([
    readPathLocations(absolute.value),
    resolvePathPolicy(request.policy),
    ...areaEntries.map(async ([area, entries]) => ({
      area,
      entries: entries === undefined ? undefined : await resolveEntries(entries),
    })),
  ]);
  const areas: Areas = resolvedAreas.flatMap(({ area, entries }) =>
    entries === undefined ? [] : [{ area, entries }],
  );
  const decision = decide(request, readings, areas, policy);
  // What was decided may depend on names out of sight (kernel-boundary.md §1 item 7).
  const sight = createPathSight(areas, policy, request.op);
  const spelled = removeDotSegments(absolute.value);
  const spelledFault = sight.arriving(spelled);
  if (decision.ok) {
    // Spelled outside and really inside (a link into the grant, macOS `/tmp`): allowed.
    if (spelledFault !== undefined || !readings.ok) return decision;
    if (!mayHavePassed(absolute.value, spelled, readings.value)) return decision;
    const passed = await walkReadings(absolute.value, spelled, sight);
    return passed === undefined ? decision : denyUnseen(request, passed, false);
  }
  if (spelledFault !== undefined) return denyUnseen(request, spelledFault, true);
  const passed = await walkReadings(absolute.value, spelled, sight);
  return passed === undefined ? decision : denyUnseen(request, passed, false);
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
 *
 * A refusal never tells what lies out of sight (outside an area, or blocked): a path
 * spelled out of sight gets one answer whatever is there (none, a file, a directory, a
 * dangling link, a loop); a path spelled in sight is walked name by name up to the first
 * name out of sight, and that name's answer is given, so only what stopped a resolution
 * in sight (a dangling link in the grant) is told. An allowed path that went through
 * `..` or a link is walked too: one that passed out of sight and came back is refused
 * (its answer would depend on what is out there). Residual: a path spelled outside
 * whose real location is inside (a link into the grant) stays allowed, which tells that
 * the link exists.
 */
export async function judgePath(request: JudgePathRequest): Promise<PathDecision> {
  try {
    return await judge(request);
  } catch (error) {
    const context = { operation: request.op, requested: String(request.path) };
    return deny({ ...context, detail: describeFsError(error) }, "FS_CANNOT_RESOLVE");
  }
}
