import type { BigIntStats } from "node:fs";
import type { FileEntry } from "./file-entry.js";

type Place = Pick<FileEntry, "name" | "path" | "shownPath">;

function zeroStats(overrides: Partial<Record<keyof BigIntStats, bigint>>): BigIntStats {
  const zero = {
    mode: 0n,
    nlink: 0n,
    uid: 0n,
    gid: 0n,
    size: 0n,
    blocks: 0n,
    ino: 0n,
    dev: 0n,
    mtimeNs: 0n,
    ...overrides,
  };
  return zero as unknown as BigIntStats;
}

/**
 * An entry of a listed directory whose metadata the grant withholds (a blocked or
 * out-of-grant entry of a readable directory): listed by name, as the real `ls` lists it
 * under the kernel's private view, never opened.
 */
export function withheldEntry(place: Place): FileEntry {
  return { ...place, stats: zeroStats({}), commandLine: false, withheld: true };
}

/**
 * The `..` of a listed directory whose parent lies outside the grant: a stand-in
 * directory, as the private view puts one where the grant shows no host directory
 * (read-only by mode, owned by the call's own user, created when the call started). It
 * tells nothing of the real parent.
 */
export function standInParent(place: Place, owner: { uid: bigint; gid: bigint }, nowNs: bigint) {
  const stats = zeroStats({ mode: 0o40555n, nlink: 2n, ...owner, mtimeNs: nowNs });
  return { ...place, stats, commandLine: false } satisfies FileEntry;
}
