import { randomBytes } from "node:crypto";
import { unlink } from "node:fs/promises";
import type { LineReader } from "./line-reader.js";
import { runPath, writeRun } from "./spill-runs.js";

/** The input, sorted: still in memory, or spilled as sorted run files. */
export interface CollectedRuns {
  readonly memory: string[];
  readonly runs: readonly string[];
  /** Deletes every run file. */
  remove(): Promise<void>;
}

/**
 * Reads every input into memory, sorting and spilling a run to `tempDir` whenever the
 * buffered line bytes pass `limit` (never without a temp directory). The last buffer
 * stays in memory, sorted. `order` sorts a buffer (in place, returning it).
 */
export async function collectRuns(
  readers: readonly LineReader[],
  order: (lines: string[]) => string[],
  tempDir: string | undefined,
  limit: number,
): Promise<CollectedRuns> {
  const runs: string[] = [];
  const token = randomBytes(6).toString("hex");
  let memory: string[] = [];
  let bytes = 0;
  const remove = async () => {
    await Promise.all(runs.map((path) => unlink(path).catch(() => undefined)));
  };
  try {
    for (const reader of readers) {
      for (let batch = await reader.nextBatch(); batch !== null; batch = await reader.nextBatch()) {
        for (const line of batch) {
          memory.push(line);
          bytes += line.length + 1;
          if (tempDir !== undefined && bytes > limit) {
            const path = runPath(tempDir, token, runs.length);
            runs.push(path);
            await writeRun(path, order(memory));
            memory = [];
            bytes = 0;
          }
        }
      }
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { memory: order(memory), runs, remove };
}
