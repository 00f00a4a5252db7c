import { stat } from "node:fs/promises";

/**
 * Whether two paths name the same file once every link is followed (same device and
 * inode, so a hard link of a granted binary counts as that binary). `false` when either
 * cannot be resolved.
 */
export async function isSameFile(a: string, b: string): Promise<boolean> {
  try {
    const [left, right] = await Promise.all([stat(a), stat(b)]);
    return left.dev === right.dev && left.ino === right.ino;
  } catch {
    return false;
  }
}
