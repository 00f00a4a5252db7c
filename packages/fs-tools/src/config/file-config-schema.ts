import path from "node:path";
import { isPlainPathText } from "@agent-bridle/core";
import * as z from "zod";

export const MIB = 1024 * 1024;

const AbsolutePathSchema = z
  .string()
  .refine(isPlainPathText, "must be a plain path (no NUL or control characters)")
  .refine((text) => path.isAbsolute(text), "must be an absolute path");

const PathEntrySchema = z
  .string()
  .refine(isPlainPathText, "must be a plain path (no NUL or control characters)");

const ByteLimitSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

const PathPolicySchema = z.strictObject({
  blocked: z.array(PathEntrySchema),
  writeBlocked: z.array(PathEntrySchema),
});

/**
 * The options a host passes to `createFileConfig`, validated strictly (an unknown key is
 * a configuration error, never ignored). Field meanings are documented on `FileConfig`.
 */
export const FileConfigSchema = z.strictObject({
  maxFileSize: ByteLimitSchema.default(MIB),
  maxWriteSize: ByteLimitSchema.default(MIB),
  maxScanSize: ByteLimitSchema.default(64 * MIB),
  maxListEntries: z.number().int().positive().max(1_000_000).default(10_000),
  allowedPaths: z.array(PathEntrySchema).optional(),
  blockedPaths: PathPolicySchema.optional(),
  followSymlinks: z.boolean().default(false),
  baseDir: AbsolutePathSchema.optional(),
});

/** What a host may pass: every field optional, defaults as documented on `FileConfig`. */
export type FileConfigOptions = z.input<typeof FileConfigSchema>;
