import * as z from "zod";
import { fsToolResultSchema } from "./fs-result.js";

/**
 * `list_allowed_directories`' result (issue 17 point 9): the directories the fs tools may
 * read under — the grant's `fs_read` roots met with the tool's allowed paths, each judged
 * (blocked or unreachable ones left out) —, sorted. `unrestricted` when neither the grant
 * nor the configuration names directories (then `directories` is empty and every path
 * not blocked is within reach).
 */
export const ListAllowedDirectoriesResultSchema = z.strictObject({
  directories: z.array(z.string()),
  unrestricted: z.boolean(),
});
export type ListAllowedDirectoriesResult = z.infer<typeof ListAllowedDirectoriesResultSchema>;

export const ListAllowedDirectoriesToolResultSchema = fsToolResultSchema(
  ListAllowedDirectoriesResultSchema,
);
