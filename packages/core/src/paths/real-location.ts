import path from "node:path";
import type { Code } from "../codes/codes.js";
import { describeFsError, fsErrorCode, isMissingError } from "./fs-error-code.js";
import { type PathProbes, pathProbes } from "./path-probes.js";

/** Device and inode of a file, compared after an open to prove it is the file judged. */
export interface FileIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
}

export type RealLocationCode = Extract<
  Code,
  "FS_DANGLING_LINK" | "FS_LINK_LOOP" | "FS_PATH_TOO_LONG" | "FS_CANNOT_RESOLVE"
>;

/** Where a path really is, or why that cannot be known. */
export type RealLocation =
  | {
      readonly ok: true;
      readonly real: string;
      readonly exists: boolean;
      /** Whether it is an existing directory (from the same lookup as `identity`). */
      readonly directory: boolean;
      readonly identity: FileIdentity | undefined;
    }
  | { readonly ok: false; readonly code: RealLocationCode; readonly detail: string };

type Probe =
  | { readonly kind: "found"; readonly real: string }
  | { readonly kind: "missing" }
  | { readonly kind: "failed"; readonly code: RealLocationCode; readonly detail: string };

function failure(error: unknown): Probe & { kind: "failed" } {
  const errno = fsErrorCode(error);
  const code =
    errno === "ELOOP"
      ? "FS_LINK_LOOP"
      : errno === "ENAMETOOLONG"
        ? "FS_PATH_TOO_LONG"
        : "FS_CANNOT_RESOLVE";
  return { kind: "failed", code, detail: describeFsError(error) };
}

/** `realpath` is the native one: it reads `link/..` physically, as the kernel does. */
async function probe(probes: PathProbes, candidate: string): Promise<Probe> {
  try {
    return { kind: "found", real: await probes.realpath(candidate) };
  } catch (error) {
    if (isMissingError(error)) return { kind: "missing" };
    return failure(error);
  }
}

function splitAbsolute(absolute: string): { root: string; parts: string[] } {
  const root = path.parse(absolute).root;
  const rest = absolute.slice(root.length);
  const parts = (path.sep === "\\" ? rest.split(/[\\/]/) : rest.split("/")).filter(Boolean);
  return { root, parts };
}

/** Joins without normalising, so `..` stays for `realpath` to read physically. */
function joinRaw(root: string, parts: readonly string[]): string {
  return root + parts.join(path.sep);
}

async function existing(probes: PathProbes, real: string): Promise<RealLocation> {
  try {
    const info = await probes.lstat(real);
    const identity = { dev: info.dev, ino: info.ino };
    return { ok: true, real, exists: true, directory: info.isDirectory(), identity };
  } catch (error) {
    return { ok: false, code: "FS_CANNOT_RESOLVE", detail: describeFsError(error) };
  }
}

/** The missing tail beneath the deepest existing ancestor (already real). */
async function missingTail(
  probes: PathProbes,
  parent: string,
  tail: readonly string[],
): Promise<RealLocation> {
  const first = tail[0] ?? "";
  if (first !== "." && first !== "..") {
    try {
      const info = await probes.lstat(path.join(parent, first));
      const detail = info.isSymbolicLink() ? "dangling link" : "changed during resolution";
      const code = info.isSymbolicLink() ? "FS_DANGLING_LINK" : "FS_CANNOT_RESOLVE";
      return { ok: false, code, detail };
    } catch (error) {
      if (!isMissingError(error)) {
        const { code, detail } = failure(error);
        return { ok: false, code, detail };
      }
    }
  }
  if (tail.some((part) => part === "." || part === "..")) {
    return {
      ok: false,
      code: "FS_CANNOT_RESOLVE",
      detail: "'.' or '..' after a missing component",
    };
  }
  const real = path.join(parent, ...tail);
  return { ok: true, real, exists: false, directory: false, identity: undefined };
}

/**
 * The real location of an absolute path: every symbolic link replaced by its target
 * (`..` after a link read physically). When the path does not exist, the deepest
 * existing ancestor is resolved and the missing tail re-appended; a `.` or `..` in that
 * tail, or no existing ancestor, cannot be resolved. A link that cannot be followed
 * (dangling, anywhere on the path) is refused, as are loops and over-long names.
 *
 * Whether a prefix resolves is monotone in its length (resolving a path resolves each
 * of its prefixes first), so the deepest existing ancestor is found by binary search:
 * O(log n) `realpath` calls for a path of n components. The lookups go through
 * `pathProbes()`: in-process while every mount is local, else the thread pool.
 */
export async function resolveRealLocation(absolute: string): Promise<RealLocation> {
  const probes = pathProbes();
  const { root, parts } = splitAbsolute(absolute);
  const whole = await probe(probes, joinRaw(root, parts));
  if (whole.kind === "found") return existing(probes, whole.real);
  if (whole.kind === "failed") return { ok: false, code: whole.code, detail: whole.detail };
  let found: { count: number; real: string } | undefined;
  let low = 0;
  let high = parts.length - 1;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const result = await probe(probes, joinRaw(root, parts.slice(0, middle)));
    if (result.kind === "failed") return { ok: false, code: result.code, detail: result.detail };
    if (result.kind === "found") {
      found = { count: middle, real: result.real };
      low = middle + 1;
    } else high = middle - 1;
  }
  if (found === undefined) {
    return { ok: false, code: "FS_CANNOT_RESOLVE", detail: "no existing ancestor" };
  }
  return missingTail(probes, found.real, parts.slice(found.count));
}
