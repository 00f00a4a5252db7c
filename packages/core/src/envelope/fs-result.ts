import * as z from "zod";
import { EnforcementReportSchema } from "../enforcement/enforcement-report.js";
import { SandboxKindSchema } from "../enforcement/sandbox-kind.js";
import { DenialSchema } from "./denial.js";
import { SCHEMA_VERSION } from "./schema-version.js";

export const ReadFileResultSchema = z.strictObject({
  path: z.string(),
  size: z.number().int().nonnegative(),
  encoding: z.enum(["utf-8", "utf-16le", "utf-16be", "latin1", "binary"]),
  content: z.string(),
  range: z
    .strictObject({
      unit: z.enum(["lines", "bytes"]),
      start: z.number().int().nonnegative(),
      end: z.number().int().nonnegative(),
    })
    .optional(),
  truncated: z.boolean(),
  binary: z.boolean(),
});
export type ReadFileResult = z.infer<typeof ReadFileResultSchema>;

export const FileTypeSchema = z.enum([
  "file",
  "directory",
  "symlink",
  "fifo",
  "socket",
  "block_device",
  "char_device",
  "unknown",
]);
export type FileType = z.infer<typeof FileTypeSchema>;

export const ListDirectoryResultSchema = z.strictObject({
  path: z.string(),
  entries: z.array(
    z.strictObject({
      name: z.string(),
      type: FileTypeSchema,
      size: z.number().int().nonnegative(),
    }),
  ),
  truncated: z.boolean(),
});
export type ListDirectoryResult = z.infer<typeof ListDirectoryResultSchema>;

export const FileInfoResultSchema = z.strictObject({
  path: z.string(),
  type: FileTypeSchema,
  size: z.number().int().nonnegative(),
  mode: z.number().int().nonnegative(),
  mtime_ms: z.number(),
  ctime_ms: z.number(),
  atime_ms: z.number(),
  link_target: z.string().optional(),
});
export type FileInfoResult = z.infer<typeof FileInfoResultSchema>;

export const WriteFileResultSchema = z.strictObject({
  path: z.string(),
  bytes_written: z.number().int().nonnegative(),
  created: z.boolean(),
});
export type WriteFileResult = z.infer<typeof WriteFileResultSchema>;

/**
 * The fs tools' outer shape: `{schema_version, sandbox_kind, enforcement?, elapsed_ms,
 * denied?, denials?, result?}`. A refusal has `denied`/`denials` and no `result`.
 */
export function fsToolResultSchema<Result extends z.ZodType>(result: Result) {
  return z
    .strictObject({
      schema_version: z.literal(SCHEMA_VERSION),
      sandbox_kind: SandboxKindSchema,
      enforcement: EnforcementReportSchema.optional(),
      elapsed_ms: z.number().nonnegative(),
      denied: z.literal(true).optional(),
      denials: z.array(DenialSchema).min(1).optional(),
      result: result.optional(),
    })
    .refine((value) => (value.denied === true) === (value.denials !== undefined), {
      message: "denied is set iff denials is non-empty",
    })
    .refine((value) => (value.denied === true) !== (value.result !== undefined), {
      message: "exactly one of result and denials",
    });
}

export const ReadFileToolResultSchema = fsToolResultSchema(ReadFileResultSchema);
export const ListDirectoryToolResultSchema = fsToolResultSchema(ListDirectoryResultSchema);
export const FileInfoToolResultSchema = fsToolResultSchema(FileInfoResultSchema);
export const WriteFileToolResultSchema = fsToolResultSchema(WriteFileResultSchema);
