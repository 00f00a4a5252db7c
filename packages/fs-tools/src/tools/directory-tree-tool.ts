import { lstat } from "node:fs/promises";
import path from "node:path";
import type {
  DirectoryTreeResult,
  Invocation,
  JudgedPath,
  PathPolicy,
  Tool,
} from "@agent-bridle/core";
import * as z from "zod";
import { createFileConfig, type FileConfig } from "../config/file-config.js";
import { blockedEntryTest } from "../list/blocked-entries.js";
import { readEntries } from "../list/read-entries.js";
import { checkOpened, releaseReadOnly } from "../paths/check-opened.js";
import { descriptorPath, joinBase } from "../paths/descriptor-location.js";
import { fileTypeOf } from "../paths/file-type.js";
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
import { READ_TOOL_REQUIRED } from "./required-caveats.js";

export const DEFAULT_TREE_DEPTH = 3;
export const MAX_TREE_DEPTH = 16;
const DEFAULT_TREE_ENTRIES = 1000;

function argumentsSchema(config: FileConfig) {
  const maxEntries = config.maxListEntries;
  return z.strictObject({
    path: PathArgumentSchema,
    max_depth: z
      .number()
      .int()
      .min(1)
      .max(MAX_TREE_DEPTH)
      .default(DEFAULT_TREE_DEPTH)
      .describe(
        `Deepest level listed, 1 = the directory's own entries (default ${DEFAULT_TREE_DEPTH})`,
      ),
    max_entries: z
      .number()
      .int()
      .min(1)
      .max(maxEntries)
      .default(Math.min(DEFAULT_TREE_ENTRIES, maxEntries))
      .describe(`Most entries returned (default ${Math.min(DEFAULT_TREE_ENTRIES, maxEntries)})`),
  });
}
export type DirectoryTreeArguments = z.infer<ReturnType<typeof argumentsSchema>>;
export type DirectoryTreeToolResult = FsToolResult<DirectoryTreeResult>;
type Entry = DirectoryTreeResult["entries"][number];

function describe(config: FileConfig): string {
  return [
    "List a directory and its subdirectories: each entry's path (relative to the directory), type and depth, each directory's entries sorted by name and followed by its own.",
    `At most \`max_depth\` levels (default ${DEFAULT_TREE_DEPTH}, at most ${MAX_TREE_DEPTH}) and \`max_entries\` entries (default ${Math.min(DEFAULT_TREE_ENTRIES, config.maxListEntries)}); \`truncated: true\` means something was left out: list a subdirectory.`,
    "Symbolic links are listed as links, never followed. Entries at blocked locations are left out, and unreachable directories are listed but not opened.",
    relativePathsText(config.baseDir),
    SCOPE_TEXT,
  ].join(" ");
}

interface Walk {
  readonly paths: ToolPaths;
  readonly policy: PathPolicy;
  readonly maxDepth: number;
  readonly maxEntries: number;
  readonly signal: AbortSignal;
  readonly entries: Entry[];
  truncated: boolean;
}

/**
 * The entries of one opened, judged directory at `depth`, blocked names left out (as
 * `list_directory` leaves them out), and each subdirectory judged and opened on its own
 * before it is listed.
 */
async function walkDirectory(
  walk: Walk,
  base: string,
  judged: JudgedPath,
  relative: string,
  depth: number,
): Promise<void> {
  const isBlocked = blockedEntryTest(walk.policy, judged.real);
  const left = walk.maxEntries - walk.entries.length;
  const scanned = await readEntries(base, {
    limit: left,
    scanLimit: left * 10,
    matches: (name) => !isBlocked(name),
    signal: walk.signal,
  });
  if (scanned.truncated) walk.truncated = true;
  const names = [...scanned.names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    if (walk.entries.length >= walk.maxEntries) {
      walk.truncated = true;
      return;
    }
    walk.signal.throwIfAborted();
    let type: Entry["type"];
    try {
      type = fileTypeOf(await lstat(joinBase(base, name), { bigint: true }));
    } catch {
      continue; // removed since it was listed
    }
    const shown = relative === "" ? name : `${relative}/${name}`;
    walk.entries.push({ path: shown, type, depth });
    if (type !== "directory") continue;
    if (depth >= walk.maxDepth) {
      walk.truncated = true;
      continue;
    }
    await openAndWalk(walk, path.join(judged.real, name), shown, depth + 1);
  }
}

async function openAndWalk(walk: Walk, location: string, shown: string, depth: number) {
  const opened = await walk.paths.openRead(location);
  if (!opened.ok) return; // listed, not opened: out of reach
  const { handle, path: judged } = opened.value;
  try {
    const checked = await checkOpened(handle, judged, {
      followSymlinks: false,
      expect: "directory",
    });
    if (!checked.ok) return;
    await walkDirectory(walk, descriptorPath(handle) ?? judged.real, judged, shown, depth);
  } finally {
    releaseReadOnly(handle);
  }
}

async function directoryTree(
  args: DirectoryTreeArguments,
  { config, paths, record: call, signal, approve }: FsCall,
): Promise<Invocation<DirectoryTreeToolResult>> {
  const opened = await paths.openRead(args.path);
  if (!opened.ok) return call.denied(opened.denial);
  const { handle, path: judged } = opened.value;
  try {
    const checked = await checkOpened(handle, judged, {
      followSymlinks: config.followSymlinks,
      expect: "directory",
    });
    if (!checked.ok) {
      const { code, explanation } = checked.refusal;
      return call.denied(createToolDenial("list", args.path, code, explanation));
    }
    await approve();
    const walk: Walk = {
      paths,
      policy: await paths.policy(),
      maxDepth: args.max_depth,
      maxEntries: args.max_entries,
      signal,
      entries: [],
      truncated: false,
    };
    await walkDirectory(walk, descriptorPath(handle) ?? judged.real, judged, "", 1);
    return call.ran({ path: judged.absolute, entries: walk.entries, truncated: walk.truncated });
  } finally {
    releaseReadOnly(handle);
  }
}

/**
 * `directory_tree`: a directory's entries and its subdirectories', bounded in depth and
 * entries with a truncation flag; the directory and each subdirectory judged by the
 * grant's `fs_read` and `config` and opened through core's mediated open, blocked
 * entries left out and never opened, links never followed.
 */
export function createDirectoryTreeTool(
  config: FileConfig = createFileConfig(),
): Tool<DirectoryTreeArguments, DirectoryTreeToolResult> {
  return defineFsTool(config, {
    name: "directory_tree",
    description: describe(config),
    inputSchema: argumentsSchema(config),
    annotations: { title: "Directory tree", ...READ_ONLY_ANNOTATIONS },
    required: READ_TOOL_REQUIRED,
    run: directoryTree,
  });
}
