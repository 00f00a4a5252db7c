import type { BigIntStats } from "node:fs";
import { lstat } from "node:fs/promises";
import type { ListDirectoryResult } from "@agent-bridle/core";
import { fileTypeOf } from "../paths/file-type.js";

export type Entry = ListDirectoryResult["entries"][number];

/** Follows the link entry `name` when allowed: the target's stats, or `undefined` to describe the link. */
export type FollowLink = (name: string) => Promise<BigIntStats | undefined>;

const BATCH = 512;

async function describeOne(base: string, name: string, follow: FollowLink | undefined) {
  try {
    const own = await lstat(`${base}/${name}`, { bigint: true });
    const stats =
      follow !== undefined && own.isSymbolicLink() ? ((await follow(name)) ?? own) : own;
    return { name, type: fileTypeOf(stats), size: Number(stats.size) };
  } catch {
    return undefined; // removed since it was listed
  }
}

/**
 * Name, type and size of each entry, looked up under `base` (the listed directory's
 * descriptor path, or its real location) without following links (`lstat`), or following
 * a link only through `follow`, which judges it first. Entries that vanished since they
 * were listed are left out. Sorted by name (UTF-16 code units).
 */
export async function describeEntries(
  base: string,
  names: readonly string[],
  follow: FollowLink | undefined,
): Promise<Entry[]> {
  const entries: Entry[] = [];
  for (let start = 0; start < names.length; start += BATCH) {
    const batch = names.slice(start, start + BATCH);
    const described = await Promise.all(batch.map((name) => describeOne(base, name, follow)));
    for (const entry of described) if (entry !== undefined) entries.push(entry);
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
