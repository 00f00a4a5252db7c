import type { BigIntStats } from "node:fs";
import path from "node:path";
import {
  type Invocation,
  type JudgedPath,
  sameFile,
  type Tool,
  type WriteFileResult,
} from "@agent-bridle/core";
import * as z from "zod";
import { defaultBlockedPaths } from "../config/default-blocked-paths.js";
import { createFileConfig, type FileConfig } from "../config/file-config.js";
import { lstatIn } from "../paths/descriptor-location.js";
import { CHANGED, unfollowedLink } from "../paths/file-refusal.js";
import { describeFileType, fileTypeOf } from "../paths/file-type.js";
import { endsInLink } from "../paths/final-link.js";
import type { ToolPaths } from "../paths/tool-paths.js";
import { createToolDenial } from "../result/fs-denial.js";
import type { FsToolResult } from "../result/fs-result.js";
import { appendInPlace } from "../write/append-in-place.js";
import { prepareParent } from "../write/prepare-parent.js";
import { replaceAtomically } from "../write/replace-atomically.js";
import { proceed, stop, stopAfter, type WriteStep } from "../write/write-refusal.js";
import { PathArgumentSchema, relativePathsText, SCOPE_TEXT } from "./arguments.js";
import { defineFsTool, type FsCall } from "./fs-tool.js";

function argumentsSchema(config: FileConfig) {
  return z.strictObject({
    path: PathArgumentSchema,
    content: z
      .string()
      .max(config.maxWriteSize)
      .describe(`Text to write, encoded as UTF-8 (at most ${config.maxWriteSize} bytes)`),
    mode: z
      .enum(["overwrite", "create", "append"])
      .default("overwrite")
      .describe(
        "overwrite: create or replace (default); create: only if nothing exists there; append: add to the end, creating the file if missing",
      ),
    create_parents: z
      .boolean()
      .default(false)
      .describe("Create missing parent directories (default false)"),
  });
}
export type WriteFileArguments = z.infer<ReturnType<typeof argumentsSchema>>;
export type WriteFileToolResult = FsToolResult<WriteFileResult>;

function describe(config: FileConfig): string {
  return [
    `Write UTF-8 text to a file (at most ${config.maxWriteSize} bytes). "overwrite" (default) creates or replaces the file atomically, through a temporary file in the same directory, so readers never see a partial file; "create" refuses if something already exists; "append" adds to the end in place.`,
    'Missing parent directories are an error unless "create_parents" is true.',
    writeBlockedText(config),
    config.followSymlinks
      ? "A symbolic link as the last name is followed: its target is written."
      : "A symbolic link as the last name is refused: write to the file it points to.",
    relativePathsText(config.baseDir),
    SCOPE_TEXT,
  ]
    .filter((sentence) => sentence !== undefined)
    .join(" ");
}

/** What the description says about write-only blocks: the default list by name, or that there are some. */
function writeBlockedText(config: FileConfig): string | undefined {
  const entries = config.blockedPaths.writeBlocked;
  if (entries.length === 0) return undefined;
  const defaults = new Set(defaultBlockedPaths().writeBlocked);
  return entries.length === defaults.size && entries.every((entry) => defaults.has(entry))
    ? "Agent and tool configuration that would run code later (.git/hooks, .git/config and git's other indirection files such as .git/commondir, .git/info and a .git file, .vscode, .idea, .claude, .cursor, .mcp.json, shell rc files, the leash's own settings) cannot be written."
    : "Some locations are blocked for writing only (configuration that would run code later).";
}

/** The target as judged: missing, or an existing regular file reached as configured. */
async function checkTarget(
  judged: JudgedPath,
  args: WriteFileArguments,
  config: FileConfig,
): Promise<WriteStep<BigIntStats | undefined>> {
  if (judged.identity === undefined) return proceed(undefined);
  if (args.mode === "create") {
    return stop({
      code: "FS_ALREADY_EXISTS",
      explanation:
        'something already exists at that path and "mode" is "create"; use "overwrite" to replace it, or choose a new name',
    });
  }
  if (!config.followSymlinks && (await endsInLink(judged))) {
    return stop(unfollowedLink("write to the file it points to by its own path"));
  }
  const existing = await lstatIn(path.dirname(judged.real), path.basename(judged.real));
  if (existing === undefined || !sameFile(existing, judged.identity)) {
    return stop(CHANGED);
  }
  const type = fileTypeOf(existing);
  if (type === "file") return proceed(existing);
  const instead = type === "directory" ? "choose a file name inside it" : "write a regular file";
  return stop({
    code: "FS_NOT_REGULAR",
    explanation: `it is ${describeFileType(type)}, not a regular file; ${instead}`,
  });
}

async function performWrite(
  paths: ToolPaths,
  judged: JudgedPath,
  args: WriteFileArguments,
  bytes: Buffer,
  approve: () => Promise<void>,
): Promise<WriteStep<WriteFileResult>> {
  const target = await checkTarget(judged, args, paths.config);
  if (!target.ok) return target;
  await approve();
  const parent = await prepareParent(path.dirname(judged.real), args.create_parents);
  if (!parent.ok) return parent;
  const result = (created: boolean): WriteFileResult => ({
    path: judged.absolute,
    bytes_written: bytes.length,
    created,
  });
  if (args.mode === "append") {
    const appended = await appendInPlace(paths, judged.absolute, args.path, bytes);
    if (!appended.ok) return stopAfter(appended, parent.value);
    return proceed(result(appended.value.created));
  }
  const replaced = await replaceAtomically(paths, {
    judged,
    existing: target.value,
    bytes,
    mode: args.mode,
    requested: args.path,
  });
  if (!replaced.ok) return stopAfter(replaced, parent.value);
  return proceed(result(target.value === undefined));
}

async function writeFile(
  args: WriteFileArguments,
  { config, paths, record: call, approve }: FsCall,
): Promise<Invocation<WriteFileToolResult>> {
  const judged = await paths.judge(args.path, "write");
  if (!judged.ok) return call.denied(judged.denial);
  const bytes = Buffer.from(args.content, "utf8");
  if (bytes.length > config.maxWriteSize) {
    const explanation = `the content is ${bytes.length} bytes as UTF-8, over the ${config.maxWriteSize}-byte limit; write it in parts with "mode": "append"`;
    return call.denied(createToolDenial("write", args.path, "FS_TOO_LARGE", explanation));
  }
  const step = await performWrite(paths, judged.value, args, bytes, approve);
  if (step.ok) return call.ran(step.value);
  const { refusal } = step;
  const denial =
    "kind" in refusal
      ? refusal
      : createToolDenial("write", args.path, refusal.code, refusal.explanation);
  return call.denied(denial, step.afterEffect);
}

/**
 * `write_file`: create, overwrite or append, judged by the grant's `fs_write` scope and by
 * `config` (including the write-only block on agent configuration); overwrite and create
 * go through a temporary file in the same directory, moved into place in one step.
 */
export function createWriteFileTool(
  config: FileConfig = createFileConfig(),
): Tool<WriteFileArguments, WriteFileToolResult> {
  return defineFsTool(config, {
    name: "write_file",
    description: describe(config),
    inputSchema: argumentsSchema(config),
    annotations: {
      title: "Write file",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    run: writeFile,
  });
}
