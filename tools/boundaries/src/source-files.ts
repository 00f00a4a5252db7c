import { readdir } from "node:fs/promises";
import path from "node:path";

const EXTENSIONS = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"];
const SKIPPED = new Set(["dist", "node_modules"]);
/** The folders of a package that are scanned. */
export const SCANNED_FOLDERS = ["src", "test"] as const;

/** Every scanned source file under `directory`, sorted; a missing folder yields none. */
export async function listSourceFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) files.push(...(await listSourceFiles(full)));
    } else if (entry.isFile() && EXTENSIONS.some((extension) => entry.name.endsWith(extension))) {
      files.push(full);
    }
  }
  return files.sort();
}
