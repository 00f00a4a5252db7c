import type { BigIntStats } from "node:fs";
import { lstat } from "node:fs/promises";
import { type JudgedPath, sameFile } from "@agent-bridle/core";

/** What the last name of a judged path holds now, compared with an opened file. */
export type FinalName = "same" | "link" | "changed";

/**
 * For `followSymlinks: false`: whether the path as spelled (absolute, dot-free) ends in
 * a symbolic link, checked against the file that was opened. A spelled path equal to its
 * real location has no link anywhere, and the mediated open proved the real name holds
 * the opened file. Otherwise the spelled name is looked at without following its last
 * component: a link is `link`; a name that no longer holds the opened file is `changed`.
 */
export async function checkFinalName(judged: JudgedPath, opened: BigIntStats): Promise<FinalName> {
  if (judged.absolute === judged.real) return "same";
  try {
    const named = await lstat(judged.absolute, { bigint: true });
    if (named.isSymbolicLink()) return "link";
    return sameFile(named, opened) ? "same" : "changed";
  } catch {
    return "changed";
  }
}

/** Whether the spelled path ends in a symbolic link now (for paths judged, not opened). */
export async function endsInLink(judged: JudgedPath): Promise<boolean> {
  if (judged.absolute === judged.real) return false;
  try {
    return (await lstat(judged.absolute)).isSymbolicLink();
  } catch {
    return false;
  }
}
