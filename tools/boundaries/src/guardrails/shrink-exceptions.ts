import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { EXCEPTIONS_FILE } from "./exceptions.js";
import { FILE_LINE_LIMIT, FUNCTION_LINE_LIMIT } from "./size-rules.js";

/** What was measured: sizes by allow-list key, and the writable fields' keys. */
export interface Measurements {
  readonly files: ReadonlyMap<string, number>;
  readonly functions: ReadonlyMap<string, number>;
  readonly fields: ReadonlySet<string>;
}

type Entries = Record<string, { lines?: number; reason: string }>;

/**
 * Rewrites the allow-list so that none of its entries is stale: removes those whose file,
 * function or field is gone or within the rules, and lowers each ceiling to the present
 * size. Never adds an entry nor raises a ceiling, so it cannot hide a new violation; the
 * number of entries it changed is returned. A missing allow-list is left missing.
 */
export async function shrinkExceptions(root: string, measured: Measurements): Promise<number> {
  const file = path.join(root, EXCEPTIONS_FILE);
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return 0;
  const data = JSON.parse(text) as Record<string, unknown>;
  let changed = 0;
  const shrink = (name: string, sizes: ReadonlyMap<string, number>, limit: number) => {
    const entries = (data[name] ?? {}) as Entries;
    for (const [key, entry] of Object.entries(entries)) {
      const lines = sizes.get(key);
      if (lines === undefined || lines <= limit) delete entries[key];
      else if (entry.lines !== undefined && lines < entry.lines) entry.lines = lines;
      else continue;
      changed += 1;
    }
  };
  shrink("file-length", measured.files, FILE_LINE_LIMIT);
  shrink("function-length", measured.functions, FUNCTION_LINE_LIMIT);
  const fields = (data["mutable-field"] ?? {}) as Entries;
  for (const key of Object.keys(fields)) {
    if (measured.fields.has(key)) continue;
    delete fields[key];
    changed += 1;
  }
  if (changed > 0) await writeFile(file, `${JSON.stringify(data, null, 2)}\n`);
  return changed;
}
