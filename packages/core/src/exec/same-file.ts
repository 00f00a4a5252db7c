import { pathProbes } from "../paths/path-probes.js";

/**
 * Whether two paths name the same file once every link is followed (same device and
 * inode, so a hard link of a granted binary counts as that binary). `false` when either
 * cannot be resolved.
 */
export async function isSameFile(a: string, b: string): Promise<boolean> {
  try {
    const probes = pathProbes();
    const [left, right] = await Promise.all([probes.stat(a), probes.stat(b)]);
    if (left === undefined || right === undefined) return false;
    return left.dev === right.dev && left.ino === right.ino;
  } catch {
    return false;
  }
}
