import * as z from "zod";
import { FileTypeSchema, fsToolResultSchema } from "./fs-result.js";

/**
 * `directory_tree`'s result (issue 17 point 9): the entries under a directory in walk
 * order (each directory's entries by name, a subdirectory's right after it), each with
 * its path relative to the listed directory, its type and its depth (1 for the
 * directory's own entries); `truncated` when the depth or the entry cap left something
 * out.
 */
export const DirectoryTreeResultSchema = z.strictObject({
  path: z.string(),
  entries: z.array(
    z.strictObject({
      path: z.string(),
      type: FileTypeSchema,
      depth: z.number().int().positive(),
    }),
  ),
  truncated: z.boolean(),
});
export type DirectoryTreeResult = z.infer<typeof DirectoryTreeResultSchema>;

export const DirectoryTreeToolResultSchema = fsToolResultSchema(DirectoryTreeResultSchema);
