import type { FileHandle } from "node:fs/promises";
import type { JudgedPath } from "@agent-bridle/core";
import { checkOpened, releaseReadOnly } from "../paths/check-opened.js";
import type { ToolPaths } from "../paths/tool-paths.js";
import { readAt } from "../read/read-at.js";
import { classifyText, decodeText, detectBom } from "../read/text-encoding.js";
import { matchingLines } from "./matching-lines.js";
import type { SearchBudget } from "./search-budget.js";

export interface SearchQuery {
  readonly query: string;
  readonly ignoreCase: boolean;
}

async function searchOpened(
  handle: FileHandle,
  judged: JudgedPath,
  shown: string,
  query: SearchQuery,
  paths: ToolPaths,
  budget: SearchBudget,
): Promise<void> {
  const { config } = paths;
  const checked = await checkOpened(handle, judged, {
    followSymlinks: config.followSymlinks,
    expect: "file",
  });
  if (!checked.ok) return; // not a regular file, or not the file judged: never read
  const size = Number(checked.stats.size);
  if (size > config.maxFileSize) {
    budget.filesSkipped += 1;
    return;
  }
  if (!budget.takeBytes(size)) return;
  // Bounded whatever the size said: at most one byte past the limit is read.
  const bytes = await readAt(handle, 0, Math.min(size, config.maxFileSize) + 1, size);
  const bom = detectBom(bytes);
  const body = bom === undefined ? bytes : bytes.subarray(bom.length);
  const encoding = classifyText(body, bom, false);
  if (bytes.length > config.maxFileSize || encoding === "binary") {
    budget.filesSkipped += 1;
    return;
  }
  budget.filesSearched += 1;
  const left = budget.matchesLeft;
  const found = matchingLines(decodeText(body, encoding), query.query, query.ignoreCase, left + 1);
  budget.add(
    found.slice(0, left).map((match) => ({ path: shown, ...match })),
    found.length > left,
  );
}

/**
 * Searches one file found by the walk: judged and opened through core's mediated open
 * (a location the grant or `FileConfig` refuses is skipped unopened and unreported),
 * checked to be a regular file at the judged location, read bounded by `maxFileSize`
 * and the search's byte budget; binary files and files over the size limit are counted
 * as skipped, never searched.
 */
export async function searchFile(
  location: string,
  shown: string,
  query: SearchQuery,
  paths: ToolPaths,
  budget: SearchBudget,
): Promise<void> {
  const opened = await paths.openRead(location);
  if (!opened.ok) return;
  try {
    await searchOpened(opened.value.handle, opened.value.path, shown, query, paths, budget);
  } finally {
    releaseReadOnly(opened.value.handle);
  }
}
