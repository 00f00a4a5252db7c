import type { BigIntStats } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { type Invocation, type ListDirectoryResult, sameFile, type Tool } from "@agent-bridle/core";
import * as z from "zod";
import { createFileConfig, type FileConfig } from "../config/file-config.js";
import { blockedEntryTest } from "../list/blocked-entries.js";
import { describeEntries, type FollowLink } from "../list/describe-entries.js";
import { readEntries } from "../list/read-entries.js";
import { checkOpened, releaseReadOnly } from "../paths/check-opened.js";
import { descriptorPath, lstatIn } from "../paths/descriptor-location.js";
import { CHANGED, type FileRefusal } from "../paths/file-refusal.js";
import type { ToolPaths } from "../paths/tool-paths.js";
import { createToolDenial } from "../result/fs-denial.js";
import type { FsToolResult } from "../result/fs-result.js";
import {
  PathArgumentSchema,
  READ_ONLY_ANNOTATIONS,
  relativePathsText,
  SCOPE_TEXT,
} from "./arguments.js";
import { defineFsTool, type FsCall } from "./fs-tool.js";
import { globMatcher, isGlobPattern } from "./name-filter.js";
import { READ_TOOL_REQUIRED } from "./required-caveats.js";

/** Default number of entries returned when `limit` is not given (at most `maxListEntries`). */
export const DEFAULT_LIST_LIMIT = 1000;

function argumentsSchema(config: FileConfig) {
  return z.strictObject({
    path: PathArgumentSchema,
    pattern: z
      .string()
      .min(1)
      .max(256)
      .refine(isGlobPattern, "must be a valid glob pattern")
      .optional()
      .describe('Glob matched against entry names (not paths), e.g. "*.ts" or "{src,test}"'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(config.maxListEntries)
      .optional()
      .describe(
        `Most entries returned (default ${Math.min(DEFAULT_LIST_LIMIT, config.maxListEntries)})`,
      ),
  });
}
export type ListDirectoryArguments = z.infer<ReturnType<typeof argumentsSchema>>;
export type ListDirectoryToolResult = FsToolResult<ListDirectoryResult>;

function describe(config: FileConfig): string {
  return [
    "List a directory: each entry's name, type (file, directory, symlink, fifo, socket, block_device, char_device) and size in bytes, sorted by name.",
    `Filter names with \`pattern\` (a glob such as "*.md"; \`*\` does not match names starting with a dot unless the pattern does). At most \`limit\` entries are returned (default ${Math.min(DEFAULT_LIST_LIMIT, config.maxListEntries)}, at most ${config.maxListEntries}); \`truncated: true\` means there are more: narrow the pattern or list subdirectories.`,
    config.followSymlinks
      ? "A symbolic link entry is described by its target when the target is within reach, else as a link."
      : "Symbolic link entries are described as links, never followed. The path itself must not end in a link.",
    "Entries at blocked locations are left out.",
    relativePathsText(config.baseDir),
    SCOPE_TEXT,
  ].join(" ");
}

/**
 * The directory at `real` is still the opened one, reached without links. Needed only
 * where the listing went by path (no descriptor paths): on Linux the listing read the
 * opened directory itself.
 */
async function directoryUnchanged(
  real: string,
  opened: BigIntStats,
  byDescriptor: boolean,
): Promise<boolean> {
  if (byDescriptor) return true;
  try {
    const [named, resolved] = await Promise.all([lstat(real, { bigint: true }), realpath(real)]);
    return resolved === real && sameFile(named, opened);
  } catch {
    return false;
  }
}

/**
 * Follows a link entry only when its target is itself within reach (judged like any
 * path), describing the target looked up in its own directory.
 */
function linkFollower(paths: ToolPaths, directory: string): FollowLink {
  return async (name): Promise<BigIntStats | undefined> => {
    const location = path.join(directory, name);
    const judged = await paths.judgeLocation(location, "read", location);
    if (!judged.ok || judged.value.identity === undefined) return undefined;
    const { real, identity } = judged.value;
    const target = await lstatIn(path.dirname(real), path.basename(real));
    return target !== undefined && sameFile(target, identity) ? target : undefined;
  };
}

async function listDirectory(
  args: ListDirectoryArguments,
  { config, paths, record: call, signal, approve }: FsCall,
): Promise<Invocation<ListDirectoryToolResult>> {
  const opened = await paths.openRead(args.path);
  if (!opened.ok) return call.denied(opened.denial);
  const { handle, path: judged } = opened.value;
  const refuse = (refusal: FileRefusal) =>
    call.denied<ListDirectoryResult>(
      createToolDenial("list", args.path, refusal.code, refusal.explanation),
    );
  try {
    const checked = await checkOpened(handle, judged, {
      followSymlinks: config.followSymlinks,
      expect: "directory",
    });
    if (!checked.ok) return refuse(checked.refusal);
    await approve();
    const { stats } = checked;
    const isBlocked = blockedEntryTest(await paths.policy(), judged.real);
    const matcher = globMatcher(args.pattern);
    const byDescriptor = descriptorPath(handle);
    const base = byDescriptor ?? judged.real;
    const scanned = await readEntries(base, {
      limit: args.limit ?? Math.min(DEFAULT_LIST_LIMIT, config.maxListEntries),
      scanLimit: config.maxListEntries * 10,
      matches: (name) => (matcher === undefined || matcher(name)) && !isBlocked(name),
      signal,
    });
    const follow = config.followSymlinks ? linkFollower(paths, judged.real) : undefined;
    const entries = await describeEntries(base, scanned.names, follow);
    if (!(await directoryUnchanged(judged.real, stats, byDescriptor !== undefined))) {
      return refuse(CHANGED);
    }
    return call.ran({ path: judged.absolute, entries, truncated: scanned.truncated });
  } finally {
    releaseReadOnly(handle);
  }
}

/**
 * `list_directory`: a directory's entries (name, type, size), judged by the grant's
 * `fs_read` scope and by `config`, opened through core's mediated open, streamed with a
 * bounded count and a truncation flag; links are never followed out of reach.
 */
export function createListDirectoryTool(
  config: FileConfig = createFileConfig(),
): Tool<ListDirectoryArguments, ListDirectoryToolResult> {
  return defineFsTool(config, {
    name: "list_directory",
    description: describe(config),
    inputSchema: argumentsSchema(config),
    annotations: { title: "List directory", ...READ_ONLY_ANNOTATIONS },
    required: READ_TOOL_REQUIRED,
    run: listDirectory,
  });
}
