import { readlink, realpath } from "node:fs/promises";
import path from "node:path";
import {
  checkContained,
  removeDotSegments,
  type Scope,
  type ToolContext,
} from "@agent-bridle/core";

/**
 * The system's program trees (kernel-boundary.md §3, the runtime closure): public by
 * design, readable by every program a call starts whatever `fs_read` says, so whether a
 * program exists there is no secret. The sandbox's view binds the same trees (and the
 * library trees, which hold no program a script names).
 */
export const PROGRAM_TREES: readonly string[] = Object.freeze(["/usr", "/bin", "/sbin", "/opt"]);

/**
 * Whether command search may ask where a program is although `fs_read` does not reach
 * it: inside a program tree, or an absolute program the exec grant names. Anywhere
 * else outside `fs_read`, a command path gets the read denial whether or not something
 * is there (kernel-boundary.md §1 item 7).
 */
export function isPublicProgram(location: string, exec: Scope<string>): boolean {
  const spelled = removeDotSegments(location);
  if (!path.isAbsolute(spelled)) return false;
  if (PROGRAM_TREES.some((tree) => checkContained(spelled, tree))) return true;
  return exec !== "all" && exec.only.includes(spelled);
}

/** As the kernel's `MAXSYMLINKS`: more links than this in a chain is a loop. */
const MAX_LINKS = 40;

/**
 * Where a command path inside `fs_read` whose link leads out of it really is, when that
 * is a public program (a venv's `bin/python3 -> python -> /usr/bin/python3`): followed
 * one link at a time, each link read only where `fs_read` reaches the directory holding
 * it, and stopping at the first location in a program tree. Anything else (a link
 * through a directory outside `fs_read` and the program trees, a loop, no link at all)
 * is `undefined`, so the lookup keeps the read denial it had: what is found depends only
 * on what the grant shows and on the public trees, never on what lies outside both.
 */
export async function publicProgramBehind(
  cx: ToolContext,
  location: string,
): Promise<string | undefined> {
  let current = removeDotSegments(location);
  for (let hop = 0; hop <= MAX_LINKS; hop += 1) {
    if (hop > 0 && isPublicProgram(current, "all")) return current;
    const holder = path.dirname(current);
    if (!(await cx.checkPathRead(holder)).ok) return undefined;
    try {
      const real = path.join(await realpath(holder), path.basename(current));
      current = removeDotSegments(path.resolve(path.dirname(real), await readlink(real)));
    } catch {
      return undefined;
    }
  }
  return undefined;
}
