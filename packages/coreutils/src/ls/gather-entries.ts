import type { GateRefusal } from "@agent-bridle/core";
import type { IoContext } from "../io/io-context.js";
import { toByteString } from "../text/byte-string.js";
import type { FileEntry } from "./file-entry.js";
import { isDirectoryMode, isLinkMode } from "./mode-string.js";

export type Gathered =
  | { readonly ok: true; readonly entry: FileEntry }
  | { readonly ok: false; readonly refusal: GateRefusal };

/**
 * Stats one file through the gate. `follow`: a command-line operand naming a link to a
 * directory is followed (GNU's default without -l, -d, -F); a dangling link falls back
 * to the link itself. `long`: links also get their target text and the target's stats.
 * A refusal is returned as it came (the caller words it, and records a denial it reports).
 */
export async function gatherEntry(
  context: IoContext,
  file: { name: string; path: string; shownPath: string; commandLine: boolean },
  follow: boolean,
  long: boolean,
): Promise<Gathered> {
  let stats = follow ? await context.opener.stat(file.path) : undefined;
  if (stats?.ok && !isDirectoryMode(stats.value.mode)) stats = undefined;
  if (
    stats !== undefined &&
    !stats.ok &&
    "errno" in stats &&
    stats.errno !== "ENOENT" &&
    stats.errno !== "ELOOP"
  ) {
    return { ok: false, refusal: stats };
  }
  if (stats === undefined || !stats.ok) stats = await context.opener.lstat(file.path);
  if (!stats.ok) return { ok: false, refusal: stats };
  let linkTarget: string | undefined;
  let linkStats: FileEntry["linkStats"];
  if (long && isLinkMode(stats.value.mode)) {
    const target = await context.opener.readlink(file.path);
    if (target.ok) linkTarget = toByteString(target.value);
    const targetStats = await context.opener.stat(file.path);
    if (targetStats.ok) linkStats = targetStats.value;
  }
  return { ok: true, entry: { ...file, stats: stats.value, linkTarget, linkStats } };
}
