import { lstat, mkdir, realpath } from "node:fs/promises";
import path from "node:path";
import { errnoOf } from "@agent-bridle/core";
import { CHANGED } from "../paths/file-refusal.js";
import { isRaceError } from "./race-errors.js";
import { proceed, stop, type WriteStep } from "./write-refusal.js";

async function kindOf(directory: string): Promise<"directory" | "missing" | "other"> {
  try {
    return (await lstat(directory)).isDirectory() ? "directory" : "other";
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return "missing";
    throw error;
  }
}

const NOT_A_DIRECTORY = {
  code: "FS_NOT_FOUND",
  explanation: "a parent on the path is not a directory; check the path",
} as const;

/**
 * Makes sure the parent directory of a judged real location exists: as it is, or — with
 * `createParents` — by creating each missing directory, top down, one name at a time
 * (`mkdir` never follows a link at the name it creates). The judged location covers every
 * missing directory (each is an ancestor of the target beneath an allowed root, and none
 * is blocked, or the target would be). Afterwards the parent must still resolve to itself
 * (no directory on the way became a link). Returns whether directories were created.
 */
async function prepare(parent: string, createParents: boolean): Promise<WriteStep<boolean>> {
  const missing: string[] = [];
  let directory = parent;
  for (let kind = await kindOf(directory); kind !== "directory"; kind = await kindOf(directory)) {
    if (kind === "other") return stop(NOT_A_DIRECTORY);
    missing.unshift(directory);
    const up = path.dirname(directory);
    if (up === directory) return stop(NOT_A_DIRECTORY);
    directory = up;
  }
  if (missing.length > 0 && !createParents) {
    return stop({
      code: "FS_NOT_FOUND",
      explanation:
        'its parent directory does not exist; pass "create_parents": true to create it, or write elsewhere',
    });
  }
  for (const each of missing) {
    try {
      await mkdir(each);
    } catch (error) {
      if (errnoOf(error) !== "EEXIST" || (await kindOf(each)) !== "directory") {
        return stop(CHANGED, true);
      }
    }
  }
  if ((await realpath(parent)) !== parent) return stop(CHANGED, missing.length > 0);
  return proceed(missing.length > 0);
}

/** `prepare`, with a path that changed under it reported as such (see `isRaceError`). */
export async function prepareParent(
  parent: string,
  createParents: boolean,
): Promise<WriteStep<boolean>> {
  try {
    return await prepare(parent, createParents);
  } catch (error) {
    if (isRaceError(error)) return stop(CHANGED, createParents);
    throw error;
  }
}
