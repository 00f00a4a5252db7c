import type { BigIntStats } from "node:fs";
import { type FileHandle, link, lstat, realpath, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { type Code, type Denial, type JudgedPath, sameFile } from "@agent-bridle/core";
import { descriptorPath, isOpenedAt, readlink } from "../paths/descriptor-location.js";
import { CHANGED, type FileRefusal } from "../paths/file-refusal.js";
import type { ToolPaths } from "../paths/tool-paths.js";
import { isRaceError } from "./race-errors.js";
import { tempLocation } from "./temp-location.js";
import { proceed, stop, type WriteStep } from "./write-refusal.js";

export interface Replacement {
  readonly judged: JudgedPath;
  /** The existing file (checked regular and the judged one), or `undefined` to create. */
  readonly existing: BigIntStats | undefined;
  readonly bytes: Buffer;
  /** `create`: fail if the name is taken by then; `overwrite`: replace whatever is there. */
  readonly mode: "create" | "overwrite";
  readonly requested: string;
}

/** Refusals of the temporary file that mean its directory is not writable, not a race. */
const AREA_CODES: readonly Code[] = ["FS_OUTSIDE_ALLOWED", "FS_BLOCKED"];

/** Removes our temporary file, only if the name still holds it. */
async function removeTemp(location: string, written: BigIntStats | undefined): Promise<boolean> {
  try {
    if (written !== undefined && sameFile(await lstat(location, { bigint: true }), written)) {
      await unlink(location);
      return true;
    }
  } catch {
    // already gone
  }
  return false;
}

/** Looks for the uncommitted file again after a swap moved it between a look and the removal. */
const REMOVAL_ATTEMPTS = 16;

/**
 * Removes our uncommitted temporary file: at its name, or, when its directory was swapped
 * away meanwhile (the name now leads elsewhere), where the kernel says the still-open file
 * is; again while a swapper keeps moving it, until the file has no name left. So no
 * written temporary file stays in the directory when it comes back.
 */
async function removeUncommitted(temp: string, written: Written | undefined): Promise<void> {
  if (written === undefined) return;
  const location = descriptorPath(written.handle);
  for (let attempt = 0; attempt < REMOVAL_ATTEMPTS; attempt++) {
    if ((await written.handle.stat({ bigint: true })).nlink === 0n) return;
    if (await removeTemp(temp, written.stats)) return;
    const at = location === undefined ? undefined : await readlink(location).catch(() => undefined);
    if (at !== undefined && at !== temp && (await removeTemp(at, written.stats))) return;
  }
}

async function stillJudged(replacement: Replacement): Promise<boolean> {
  const { judged, existing } = replacement;
  const directory = path.dirname(judged.real);
  if ((await realpath(directory)) !== directory) return false;
  if (existing === undefined) return true;
  try {
    return sameFile(await lstat(judged.real, { bigint: true }), existing);
  } catch {
    return false;
  }
}

/** Moves the written temporary file into place: `rename` (replace) or `link` (create only). */
async function commit(temp: string, replacement: Replacement): Promise<Code | undefined> {
  if (replacement.mode === "overwrite") {
    await rename(temp, replacement.judged.real);
    return undefined;
  }
  try {
    await link(temp, replacement.judged.real);
    return undefined;
  } catch (error) {
    if ((error as { code?: unknown }).code === "EEXIST") return "FS_ALREADY_EXISTS";
    throw error;
  }
}

/** Our temporary file, still open (so it can be found again if its directory moves). */
interface Written {
  readonly stats: BigIntStats;
  readonly handle: FileHandle;
}

type TempOutcome =
  | ({ readonly kind: "written" } & Written)
  | { readonly kind: "refused"; readonly denial: Denial }
  /** Made somewhere else than judged (a directory swapped meanwhile), still empty. */
  | ({ readonly kind: "misplaced" } & Written);

async function writeTemp(
  paths: ToolPaths,
  temp: string,
  replacement: Replacement,
): Promise<TempOutcome> {
  const permissions = replacement.existing ? Number(replacement.existing.mode & 0o7777n) : 0o666;
  const opened = await paths.openWrite(temp, replacement.requested, {
    exclusive: true,
    mode: permissions,
  });
  if (!opened.ok) return { kind: "refused", denial: opened.denial };
  const { handle, path: judged } = opened.value;
  try {
    if (!(await isOpenedAt(handle, judged.real))) {
      return { kind: "misplaced", stats: await handle.stat({ bigint: true }), handle };
    }
    await handle.writeFile(replacement.bytes);
    if (replacement.existing !== undefined) await handle.chmod(permissions);
    await handle.datasync();
    return { kind: "written", stats: await handle.stat({ bigint: true }), handle };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function tempRefusal(denial: Denial): FileRefusal {
  if (!AREA_CODES.includes(denial.code)) {
    return {
      code: denial.code,
      explanation:
        "the temporary file for the atomic replace could not be created next to it; nothing was written, retry or check the directory",
    };
  }
  return {
    code: denial.code,
    explanation:
      'write_file replaces a file through a temporary file in the same directory, and that directory is not writable under the grant and the allowed paths; ask for write access to the directory, or use "mode": "append" on an existing file',
  };
}

/**
 * Writes the content to a new temporary file in the target's directory (created
 * exclusively through core's mediated open, so it is judged like any path, and checked to
 * be where it was judged), then, if the target and its directory are still what was
 * judged, moves it over the target in one step: readers see the old file or the new one,
 * never a part. An existing file keeps its permission bits; a hard link to it elsewhere
 * keeps the old content (the name is replaced, not the file).
 */
export async function replaceAtomically(
  paths: ToolPaths,
  replacement: Replacement,
): Promise<WriteStep<undefined>> {
  const temp = tempLocation(replacement.judged.real);
  let written: Written | undefined;
  const state = { committed: false };
  try {
    const outcome = await writeTemp(paths, temp, replacement);
    if (outcome.kind === "refused") return stop(tempRefusal(outcome.denial));
    written = outcome;
    // Misplaced: ours (made exclusively, still empty), it goes below, wherever the swap put it.
    if (outcome.kind === "misplaced") return stop(CHANGED);
    return await moveIntoPlace(temp, written.stats, replacement, state);
  } catch (error) {
    if (isRaceError(error)) return stop(CHANGED);
    throw error;
  } finally {
    // Renamed into place, the file is the target now; linked (create), the name still goes.
    if (state.committed && replacement.mode === "overwrite") await written?.handle.close();
    else await removeUncommitted(temp, written).finally(() => written?.handle.close());
  }
}

/** The written temporary file moved over the target, if all is still as judged. */
async function moveIntoPlace(
  temp: string,
  written: BigIntStats,
  replacement: Replacement,
  state: { committed: boolean },
): Promise<WriteStep<undefined>> {
  if (!(await stillJudged(replacement))) return stop(CHANGED);
  const refused = await commit(temp, replacement);
  state.committed = refused === undefined;
  if (refused !== undefined) {
    return stop({
      code: refused,
      explanation:
        'something already exists at that path and "mode" is "create"; use "overwrite" to replace it, or choose a new name',
    });
  }
  // Moved: from here on an effect happened, so a refusal is charged.
  const placed = await lstat(replacement.judged.real, { bigint: true }).catch(() => undefined);
  return placed !== undefined && sameFile(placed, written)
    ? proceed(undefined)
    : stop(CHANGED, true);
}
