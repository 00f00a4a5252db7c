import type { BigIntStats } from "node:fs";
import { constants } from "node:fs";
import { type FileHandle, lstat, open, readlink } from "node:fs/promises";

// Linux names every open descriptor under /proc/self/fd: the link's text is where the
// opened file really is, and a path beneath a directory's entry there is looked up in that
// very directory (as openat/fstatat would). Node has neither call, so this is how the
// tools check and use what they opened. Elsewhere (macOS, Windows) these checks fall back
// to paths, and only the mediated open's device/inode checks hold.
const HAS_DESCRIPTOR_PATHS = process.platform === "linux";

/** The `/proc/self/fd/N` path of an open descriptor, on Linux; `undefined` elsewhere. */
export function descriptorPath(handle: FileHandle): string | undefined {
  return HAS_DESCRIPTOR_PATHS ? `/proc/self/fd/${handle.fd}` : undefined;
}

/**
 * Whether an opened descriptor really is at `real`: on Linux, the kernel's name for the
 * descriptor must be exactly the judged real location (a file reached through a directory
 * swapped for a link, or renamed or deleted since, is somewhere else). Where the kernel
 * cannot be asked, `true`.
 */
export async function isOpenedAt(handle: FileHandle, real: string): Promise<boolean> {
  const location = descriptorPath(handle);
  if (location === undefined) return true;
  try {
    return (await readlink(location)) === real;
  } catch {
    return false;
  }
}

/** What opening a directory that was swapped or removed meanwhile fails with. */
const MOVED = new Set(["ENOENT", "ENOTDIR", "ELOOP"]);

const DIRECTORY_FLAGS =
  constants.O_RDONLY |
  (constants.O_DIRECTORY ?? 0) |
  (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0);

/**
 * Runs `use` with a base path that names the directory at `directory` (a real location)
 * for lookups: on Linux the directory is opened without following a link, the kernel
 * confirms it is at `directory`, and the base is its `/proc/self/fd/N`, so a name looked up
 * beneath it is looked up in that directory, and a directory swapped for a link on the way
 * cannot redirect it (`undefined` when the directory is not where it should be).
 * A directory gone or replaced meanwhile (`ENOENT`, `ENOTDIR`, `ELOOP` from the open) is not
 * where it should be either. Elsewhere the base is `directory` itself.
 */
export async function inDirectory<Value>(
  directory: string,
  use: (base: string) => Promise<Value>,
): Promise<Value | undefined> {
  if (!HAS_DESCRIPTOR_PATHS) return use(directory);
  let handle: FileHandle;
  try {
    handle = await open(directory, DIRECTORY_FLAGS);
  } catch (error) {
    if (MOVED.has((error as { code?: string }).code ?? "")) return undefined;
    throw error;
  }
  try {
    if (!(await isOpenedAt(handle, directory))) return undefined;
    return await use(`/proc/self/fd/${handle.fd}`);
  } finally {
    await handle.close();
  }
}

/** `lstat` of `name` in the directory at `directory`, looked up as `inDirectory` does. */
export function lstatIn(directory: string, name: string): Promise<BigIntStats | undefined> {
  return inDirectory(directory, (base) => lstat(joinBase(base, name), { bigint: true }));
}

/** `base/name`, or `base` itself for the empty name (the file system root's own entry). */
export function joinBase(base: string, name: string): string {
  return name === "" ? base : `${base}/${name}`;
}

export { readlink };
