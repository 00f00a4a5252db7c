import { randomBytes } from "node:crypto";
import { unlink } from "node:fs/promises";
import type { LineComparator } from "./compare-lines.js";
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
 * stays in memory, sorted.
 */
export async function collectRuns(
  readers: readonly LineReader[],
  compare: LineComparator,
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
      for (let line = await reader.next(); line !== null; line = await reader.next()) {
        memory.push(line);
        bytes += line.length + 1;
        if (tempDir !== undefined && bytes > limit) {
          const path = runPath(tempDir, token, runs.length);
          runs.push(path);
          await writeRun(path, memory.sort(compare));
          memory = [];
          bytes = 0;
        }
      }
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { memory: memory.sort(compare), runs, remove };
}
