import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { type Invocation, type JudgedPath, sameFile, type Tool } from "@agent-bridle/core";
import * as z from "zod";
import { createFileConfig, type FileConfig } from "../config/file-config.js";
import { applyEdits } from "../edit/apply-edits.js";
import { unifiedDiff } from "../edit/unified-diff.js";
import { checkOpened, releaseReadOnly } from "../paths/check-opened.js";
import { lstatIn } from "../paths/descriptor-location.js";
import { CHANGED, type FileRefusal } from "../paths/file-refusal.js";
import { createToolDenial } from "../result/fs-denial.js";
import type { FsToolResult } from "../result/fs-result.js";
import { replaceAtomically } from "../write/replace-atomically.js";
import { PathArgumentSchema, relativePathsText, SCOPE_TEXT } from "./arguments.js";
import { defineFsTool, type FsCall } from "./fs-tool.js";

/** Most edits in one call. */
export const MAX_EDITS = 100;

function argumentsSchema(config: FileConfig) {
  const text = z.string().max(config.maxWriteSize);
  return z.strictObject({
    path: PathArgumentSchema,
    edits: z
      .array(
        z.strictObject({
          old_text: text.min(1).describe("Exact text to replace; must occur exactly once"),
          new_text: text.describe("Text to put in its place"),
        }),
      )
      .min(1)
      .max(MAX_EDITS)
      .describe("Replacements applied in order, each to the result of the ones before"),
    dry_run: z.boolean().default(false).describe("Return the diff without writing (default false)"),
  });
}
export type EditFileArguments = z.infer<ReturnType<typeof argumentsSchema>>;

/** `edit_file`'s result: the diff of what changed (`git diff` style, 3 lines of context). */
export interface EditFileResult {
  readonly path: string;
  readonly edits_applied: number;
  readonly diff: string;
  readonly bytes_written: number;
  readonly dry_run: boolean;
}
export type EditFileToolResult = FsToolResult<EditFileResult>;

function describe(config: FileConfig): string {
  return [
    "Edit a UTF-8 text file by exact-text replacement: each edit's old_text must occur exactly once (after the edits before it), else nothing is written and the refusal says which edit failed.",
    `Returns a unified diff of the change. The file is replaced atomically, through a temporary file in the same directory; it must be a regular file of at most ${config.maxFileSize} bytes. "dry_run": true returns the diff without writing.`,
    "Needs both read and write access to the file; the write-only blocks of write_file apply.",
    relativePathsText(config.baseDir),
    SCOPE_TEXT,
  ].join(" ");
}

type Step<Value> =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly refusal: FileRefusal };

/** The file's text, read through the mediated open, checked to be the file judged for writing. */
async function readJudged(
  handle: FileHandle,
  opened: JudgedPath,
  writeJudged: JudgedPath,
  config: FileConfig,
): Promise<Step<string>> {
  const checked = await checkOpened(handle, opened, {
    followSymlinks: config.followSymlinks,
    expect: "file",
  });
  if (!checked.ok) return checked;
  const { stats } = checked;
  if (writeJudged.identity === undefined || !sameFile(stats, writeJudged.identity)) {
    return { ok: false, refusal: CHANGED };
  }
  if (stats.size > BigInt(config.maxFileSize)) {
    return {
      ok: false,
      refusal: {
        code: "FS_TOO_LARGE",
        explanation: `the file is ${stats.size} bytes, over the ${config.maxFileSize}-byte limit; edit it with the shell, or split it`,
      },
    };
  }
  // Bounded whatever the size said: at most one byte past the limit is read.
  const buffer = Buffer.alloc(config.maxFileSize + 1);
  let length = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0 || length + bytesRead >= buffer.length) {
      length += bytesRead;
      break;
    }
    length += bytesRead;
  }
  const bytes = buffer.subarray(0, length);
  const text = bytes.toString("utf8");
  if (length > config.maxFileSize || !Buffer.from(text, "utf8").equals(bytes)) {
    return {
      ok: false,
      refusal: {
        code: length > config.maxFileSize ? "FS_TOO_LARGE" : "FS_NOT_REGULAR",
        explanation:
          length > config.maxFileSize
            ? "the file grew past the size limit while it was read; nothing was written"
            : "the file is not UTF-8 text; edit_file edits text files only",
      },
    };
  }
  return { ok: true, value: text };
}

async function editFile(
  args: EditFileArguments,
  { config, paths, record: call, approve }: FsCall,
): Promise<Invocation<EditFileToolResult>> {
  const deny = (refusal: FileRefusal, afterEffect = false) =>
    call.denied<EditFileResult>(
      createToolDenial("write", args.path, refusal.code, refusal.explanation),
      afterEffect,
    );
  const writeJudged = await paths.judge(args.path, "write");
  if (!writeJudged.ok) return call.denied(writeJudged.denial);
  const judged = writeJudged.value;
  if (judged.identity === undefined) {
    return deny({
      code: "FS_NOT_FOUND",
      explanation: "no file exists there; create it with write_file",
    });
  }
  const opened = await paths.openRead(args.path);
  if (!opened.ok) return call.denied(opened.denial);
  let text: Step<string>;
  try {
    text = await readJudged(opened.value.handle, opened.value.path, judged, config);
  } finally {
    releaseReadOnly(opened.value.handle);
  }
  if (!text.ok) return deny(text.refusal);
  const edited = applyEdits(text.value, args.edits);
  if (!edited.ok) return deny(edited.refusal);
  const bytes = Buffer.from(edited.text, "utf8");
  if (bytes.length > config.maxWriteSize) {
    return deny({
      code: "FS_TOO_LARGE",
      explanation: `the edited file would be ${bytes.length} bytes, over the ${config.maxWriteSize}-byte write limit; nothing was written`,
    });
  }
  // The edits apply and fit: the person is asked before the diff or the file changes.
  await approve();
  const result = (written: number): EditFileResult => ({
    path: judged.absolute,
    edits_applied: args.edits.length,
    diff: unifiedDiff(path.basename(judged.absolute), text.value, edited.text),
    bytes_written: written,
    dry_run: args.dry_run,
  });
  if (args.dry_run) return call.ran(result(0));
  const existing = await lstatIn(path.dirname(judged.real), path.basename(judged.real));
  if (existing === undefined || !sameFile(existing, judged.identity)) {
    return deny(CHANGED);
  }
  const replaced = await replaceAtomically(paths, {
    judged,
    existing,
    bytes,
    mode: "overwrite",
    requested: args.path,
  });
  if (replaced.ok) return call.ran(result(bytes.length));
  const { refusal } = replaced;
  if ("kind" in refusal) return call.denied(refusal, replaced.afterEffect);
  return deny(refusal, replaced.afterEffect);
}

/**
 * `edit_file`: exact-text replacements in one file, judged by the grant's `fs_write` and
 * `fs_read` scopes and by `config` (the write-only blocks included), read through core's
 * mediated open and written through the same atomic replace as `write_file`; refuses
 * without writing when an old text is missing or not unique.
 */
export function createEditFileTool(
  config: FileConfig = createFileConfig(),
): Tool<EditFileArguments, EditFileToolResult> {
  return defineFsTool(config, {
    name: "edit_file",
    description: describe(config),
    inputSchema: argumentsSchema(config),
    annotations: {
      title: "Edit file",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    run: editFile,
  });
}
