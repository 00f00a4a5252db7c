import path from "node:path";
import { checkContained, removeDotSegments, type Scope } from "@agent-bridle/core";

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
