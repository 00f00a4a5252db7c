import { open } from "node:fs/promises";
import { join } from "node:path";
import { fileSource } from "../io/byte-source.js";
import { LineReader } from "./line-reader.js";

const WRITE_CHUNK = 1024 * 1024;

/** Writes sorted lines to `path` (newline-terminated), in chunks of about 1 MiB. */
export async function writeRun(path: string, lines: readonly string[]): Promise<void> {
  const handle = await open(path, "wx", 0o600);
  try {
    let batch: string[] = [];
    let size = 0;
    for (const line of lines) {
      batch.push(line);
      size += line.length + 1;
      if (size >= WRITE_CHUNK) {
        await handle.write(Buffer.from(`${batch.join("\n")}\n`, "latin1"));
        batch = [];
        size = 0;
      }
    }
    if (batch.length > 0) await handle.write(Buffer.from(`${batch.join("\n")}\n`, "latin1"));
  } finally {
    await handle.close();
  }
}

/** The name of the `index`-th run in the per-call temp directory. */
export const runPath = (tempDir: string, token: string, index: number): string =>
  join(tempDir, `sort-run-${token}-${index}`);

/** Opens a run for reading back, one line at a time. */
export async function openRun(
  path: string,
): Promise<{ reader: LineReader; close: () => Promise<void> }> {
  const handle = await open(path, "r");
  return { reader: new LineReader(fileSource(handle, 256 * 1024)), close: () => handle.close() };
}
