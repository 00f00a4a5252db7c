import { pathProbes } from "./path-probes.js";
import type { FileIdentity } from "./real-location.js";

/** Whether two stats (or identities) are the same file: same device and inode. */
export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Whether two paths name the same file once every link is followed (same device and
 * inode, so a hard link of a granted binary counts as that binary). `false` when either
 * cannot be resolved.
 */
export async function isSameFile(a: string, b: string): Promise<boolean> {
  try {
    const probes = pathProbes();
    const [left, right] = await Promise.all([probes.stat(a), probes.stat(b)]);
    return left !== undefined && right !== undefined && sameFile(left, right);
  } catch {
    return false;
  }
}
