import * as z from "zod";
import { fsToolResultSchema } from "./fs-result.js";

/**
 * `search_files`' result (issue 17 point 9): the lines holding the query under a
 * directory, each with its file's path and 1-based line number, in walk order;
 * `truncated` when the match cap, the scan budget or the entry budget stopped the search.
 */
export const SearchFilesResultSchema = z.strictObject({
  path: z.string(),
  matches: z.array(
    z.strictObject({
      path: z.string(),
      line: z.number().int().positive(),
      text: z.string(),
    }),
  ),
  files_searched: z.number().int().nonnegative(),
  files_skipped: z.number().int().nonnegative(),
  truncated: z.boolean(),
});
export type SearchFilesResult = z.infer<typeof SearchFilesResultSchema>;

export const SearchFilesToolResultSchema = fsToolResultSchema(SearchFilesResultSchema);
