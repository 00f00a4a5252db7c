import type { FileHandle } from "node:fs/promises";
import type { Invocation, ReadFileResult, Tool } from "@agent-bridle/core";
import * as z from "zod";
import { createFileConfig, type FileConfig } from "../config/file-config.js";
import { checkOpened, releaseReadOnly } from "../paths/check-opened.js";
import { readByteRange } from "../read/read-byte-range.js";
import { readLineRange } from "../read/read-line-range.js";
import type { ReadOutcome } from "../read/read-outcome.js";
import { readWhole } from "../read/read-whole.js";
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

const Count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

const RangeSchema = z
  .discriminatedUnion("unit", [
    z.strictObject({
      unit: z.literal("lines"),
      start: Count.min(1).describe("First line, 1-based"),
      end: Count.min(1).describe("Last line, inclusive"),
    }),
    z.strictObject({
      unit: z.literal("bytes"),
      start: Count.describe("First byte, 0-based"),
      end: Count.describe("One past the last byte (exclusive)"),
    }),
  ])
  .refine((range) => range.end >= range.start, {
    message: "end must be greater than or equal to start",
    path: ["end"],
  });

export const ReadFileArgumentsSchema = z.strictObject({
  path: PathArgumentSchema,
  range: RangeSchema.optional().describe(
    "Part of the file to read: lines (1-based, inclusive) or bytes (0-based, end exclusive)",
  ),
});
export type ReadFileArguments = z.infer<typeof ReadFileArgumentsSchema>;

export type ReadFileToolResult = FsToolResult<ReadFileResult>;

function describe(config: FileConfig): string {
  const max = config.maxFileSize;
  return [
    "Read a text file. The content is decoded as UTF-8, UTF-16 (with a byte order mark) or Latin-1 (`encoding` says which); a binary file is reported with `binary: true` and no content.",
    `A file larger than ${max} bytes is refused whole: read part of it with \`range\`, either {"unit":"lines","start":1,"end":200} (1-based, inclusive) or {"unit":"bytes","start":0,"end":65536} (0-based, end exclusive). A range returns at most ${max} bytes; when it stops early \`truncated\` is true and \`range.end\` is the last line or byte returned, so continue from there.`,
    config.followSymlinks
      ? "A symbolic link as the last name is followed."
      : "A symbolic link as the last name is not followed (it is refused as not a regular file): read the file it points to.",
    relativePathsText(config.baseDir),
    SCOPE_TEXT,
  ].join(" ");
}

function readOpened(
  args: ReadFileArguments,
  config: FileConfig,
  handle: FileHandle,
  size: number,
): Promise<ReadOutcome> {
  const { range } = args;
  if (range === undefined) return readWhole(handle, size, config.maxFileSize);
  if (range.unit === "bytes") return readByteRange(handle, range, config.maxFileSize);
  return readLineRange(handle, range, config);
}

async function readFile(
  args: ReadFileArguments,
  { config, paths, record: call, approve }: FsCall,
): Promise<Invocation<ReadFileToolResult>> {
  const opened = await paths.openRead(args.path);
  if (!opened.ok) return call.denied(opened.denial);
  const { handle, path: judged } = opened.value;
  try {
    const checked = await checkOpened(handle, judged, {
      followSymlinks: config.followSymlinks,
      expect: "file",
    });
    if (checked.ok) await approve();
    const size = checked.ok ? Number(checked.stats.size) : 0;
    const outcome = checked.ok ? await readOpened(args, config, handle, size) : checked.refusal;
    if ("explanation" in outcome) {
      return call.denied(createToolDenial("read", args.path, outcome.code, outcome.explanation));
    }
    return call.ran({ path: judged.absolute, size, ...outcome.value });
  } finally {
    releaseReadOnly(handle);
  }
}

/**
 * `read_file`: a whole text file, or a line or byte range of one, judged by the grant's
 * `fs_read` scope and by `config`, read through core's mediated open (the file read is
 * the file judged) and through a reader bounded in bytes.
 */
export function createReadFileTool(
  config: FileConfig = createFileConfig(),
): Tool<ReadFileArguments, ReadFileToolResult> {
  return defineFsTool(config, {
    name: "read_file",
    description: describe(config),
    inputSchema: ReadFileArgumentsSchema,
    annotations: { title: "Read file", ...READ_ONLY_ANNOTATIONS },
    required: READ_TOOL_REQUIRED,
    run: readFile,
  });
}
