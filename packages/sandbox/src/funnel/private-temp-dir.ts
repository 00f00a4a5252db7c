import { chmod, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";

export interface PrivateTempDir {
  readonly path: string;
  remove(): Promise<void>;
}

/**
 * A per-call directory (mode 0700) under `parent`: the child's `TMPDIR`, granted to it as
 * a write root by the funnel and disclosed in the result; removed after the call.
 */
export async function createPrivateTempDir(parent: string): Promise<PrivateTempDir> {
  const path = await mkdtemp(join(parent, "bridle-call-"));
  await chmod(path, 0o700);
  return {
    path,
    remove: () => rm(path, { recursive: true, force: true, maxRetries: 2 }),
  };
}
