import type { BigIntStats } from "node:fs";
import { lstat, readlink } from "node:fs/promises";
import path from "node:path";
import {
  checkBlocked,
  type Denial,
  type FileInfoResult,
  type Invocation,
  type JudgedPath,
  sameFile,
  type Tool,
} from "@agent-bridle/core";
import * as z from "zod";
import { createFileConfig, type FileConfig } from "../config/file-config.js";
import { inDirectory, joinBase, lstatIn } from "../paths/descriptor-location.js";
import { CHANGED, type FileRefusal } from "../paths/file-refusal.js";
import { fileTypeOf } from "../paths/file-type.js";
import { endsInLink } from "../paths/final-link.js";
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

export const FileInfoArgumentsSchema = z.strictObject({ path: PathArgumentSchema });
export type FileInfoArguments = z.infer<typeof FileInfoArgumentsSchema>;
export type FileInfoToolResult = FsToolResult<FileInfoResult>;

type Described =
  | { readonly ok: true; readonly value: FileInfoResult }
  | { readonly ok: false; readonly refusal: FileRefusal | Denial };

const NOT_FOUND: FileRefusal = {
  code: "FS_NOT_FOUND",
  explanation: "nothing exists at that path; check the spelling, or list its parent directory",
};

function describe(config: FileConfig): string {
  return [
    "Describe a file without reading it: type (file, directory, symlink, fifo, socket, block_device, char_device), size in bytes, permission bits (`mode`, e.g. 420 = 0o644) and modification, change and access times in milliseconds since the epoch.",
    config.followSymlinks
      ? "A symbolic link as the last name is followed: its target is described."
      : "A symbolic link as the last name is described as a link, with `link_target` (the text of the link); it must still lead somewhere within reach.",
    relativePathsText(config.baseDir),
    SCOPE_TEXT,
  ].join(" ");
}

function infoOf(location: string, stats: BigIntStats, linkTarget?: string): FileInfoResult {
  return {
    path: location,
    type: fileTypeOf(stats),
    size: Number(stats.size),
    mode: Number(stats.mode & 0o7777n),
    mtime_ms: Number(stats.mtimeNs) / 1e6,
    ctime_ms: Number(stats.ctimeNs) / 1e6,
    atime_ms: Number(stats.atimeNs) / 1e6,
    ...(linkTarget === undefined ? {} : { link_target: linkTarget }),
  };
}

/**
 * The link itself, for `followSymlinks: false`. Its target was judged (a link must still
 * lead within reach); the link's own location — its parent directory's real location plus
 * its name — is judged too, so a link elsewhere is never described, and it is looked up in
 * that directory itself.
 */
async function describeLink(
  paths: ToolPaths,
  judged: JudgedPath,
  requested: string,
): Promise<Described> {
  const parent = await paths.judgeLocation(path.dirname(judged.absolute), "read", requested);
  if (!parent.ok) return { ok: false, refusal: parent.denial };
  const name = path.basename(judged.absolute);
  const location = path.join(parent.value.real, name);
  const blocked = checkBlocked(await paths.policy(), location, "read");
  if (blocked.blocked) {
    const explanation = `it is a blocked location (${blocked.entry}) that no grant reaches; use another path`;
    return { ok: false, refusal: { code: "FS_BLOCKED", explanation } };
  }
  const link = await inDirectory(parent.value.real, async (base) => {
    const stats = await lstat(joinBase(base, name), { bigint: true });
    return stats.isSymbolicLink()
      ? { stats, target: await readlink(joinBase(base, name)) }
      : undefined;
  });
  if (link === undefined) return { ok: false, refusal: CHANGED };
  return { ok: true, value: infoOf(judged.absolute, link.stats, link.target) };
}

/** The judged file, looked up in its own directory and checked to be the one judged. */
async function describeFile(judged: JudgedPath): Promise<Described> {
  if (judged.identity === undefined) return { ok: false, refusal: NOT_FOUND };
  const stats = await lstatIn(path.dirname(judged.real), path.basename(judged.real));
  if (stats === undefined || !sameFile(stats, judged.identity)) {
    return { ok: false, refusal: CHANGED };
  }
  return { ok: true, value: infoOf(judged.absolute, stats) };
}

async function fileInfo(
  args: FileInfoArguments,
  { config, paths, record: call, approve }: FsCall,
): Promise<Invocation<FileInfoToolResult>> {
  const judged = await paths.judge(args.path, "read");
  if (!judged.ok) return call.denied(judged.denial);
  await approve();
  let described: Described;
  try {
    described =
      !config.followSymlinks && judged.value.exists && (await endsInLink(judged.value))
        ? await describeLink(paths, judged.value, args.path)
        : await describeFile(judged.value);
  } catch {
    described = { ok: false, refusal: CHANGED };
  }
  if (described.ok) return call.ran(described.value);
  const { refusal } = described;
  return call.denied(
    "kind" in refusal
      ? refusal
      : createToolDenial("describe", args.path, refusal.code, refusal.explanation),
  );
}

/**
 * `file_info`: type, size, mode and times of a path, judged by the grant's `fs_read` scope
 * and by `config`, without opening it; a symbolic link as the last name is described as a
 * link when `followSymlinks` is false.
 */
export function createFileInfoTool(
  config: FileConfig = createFileConfig(),
): Tool<FileInfoArguments, FileInfoToolResult> {
  return defineFsTool(config, {
    name: "file_info",
    description: describe(config),
    inputSchema: FileInfoArgumentsSchema,
    annotations: { title: "File information", ...READ_ONLY_ANNOTATIONS },
    required: READ_TOOL_REQUIRED,
    run: fileInfo,
  });
}
