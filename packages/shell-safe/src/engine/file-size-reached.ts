import type { OpenedTarget } from "./stage-plan.js";

/**
 * Whether a regular file the engine opened for a stage to write has reached `limit`
 * bytes (the RLIMIT_FSIZE the launcher set). A program at PID 1 of the launcher's
 * namespace, as every stage here is, is not killed by SIGXFSZ for a write past the
 * limit: the write fails with `EFBIG` and the file stops at the limit, so its size is
 * what tells. A file that ends exactly at the limit without a write past it counts too.
 */
export async function fileSizeReached(
  targets: readonly OpenedTarget[],
  limit: number,
): Promise<boolean> {
  for (const target of targets) {
    if (!target.writing) continue;
    const stats = await target.handle.stat().catch(() => undefined);
    if (stats?.isFile() === true && stats.size >= limit) return true;
  }
  return false;
}
