import type { Invocation, SearchFilesResult, Tool } from "@agent-bridle/core";
import * as z from "zod";
import { createFileConfig, type FileConfig } from "../config/file-config.js";
import { releaseReadOnly } from "../paths/check-opened.js";
import type { FileRefusal } from "../paths/file-refusal.js";
import { createToolDenial } from "../result/fs-denial.js";
import type { FsToolResult } from "../result/fs-result.js";
import { MAX_LINE_CHARS } from "../search/matching-lines.js";
import { SearchBudget } from "../search/search-budget.js";
import { walkOpened } from "../search/search-directory.js";
import {
  PathArgumentSchema,
  READ_ONLY_ANNOTATIONS,
  relativePathsText,
  SCOPE_TEXT,
} from "./arguments.js";
import { defineFsTool, type FsCall } from "./fs-tool.js";
import { globMatcher, isGlobPattern } from "./name-filter.js";
import { READ_TOOL_REQUIRED } from "./required-caveats.js";

/** Default and largest `max_results` of `search_files`. */
export const DEFAULT_SEARCH_MATCHES = 100;
export const MAX_SEARCH_MATCHES = 1000;

function argumentsSchema() {
  return z.strictObject({
    path: PathArgumentSchema.describe(
      "Directory to search under (absolute, or relative to the tool's base directory)",
    ),
    query: z
      .string()
      .min(1)
      .max(1000)
      .refine((text) => !/[\r\n]/.test(text), "must be a single line")
      .describe("Text to find, matched literally (not a regular expression), within one line"),
    ignore_case: z
      .boolean()
      .default(false)
      .describe("Match without regard to case (default false)"),
    include: z
      .string()
      .min(1)
      .max(256)
      .refine(isGlobPattern, "must be a valid glob pattern")
      .optional()
      .describe('Glob matched against file names (not paths), e.g. "*.ts"; default every file'),
    max_results: z
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_MATCHES)
      .default(DEFAULT_SEARCH_MATCHES)
      .describe(`Most matching lines returned (default ${DEFAULT_SEARCH_MATCHES})`),
  });
}
export type SearchFilesArguments = z.infer<ReturnType<typeof argumentsSchema>>;
export type SearchFilesToolResult = FsToolResult<SearchFilesResult>;

function describe(config: FileConfig): string {
  return [
    "Search the text files under a directory (recursively) for the lines that contain `query`, matched literally: each match gives the file's path, the 1-based line number and the line's text (cut at " +
      `${MAX_LINE_CHARS} characters).`,
    `At most \`max_results\` matches (default ${DEFAULT_SEARCH_MATCHES}); binary files and files over ${config.maxFileSize} bytes are skipped (\`files_skipped\`); the search reads at most ${config.maxScanSize} bytes and examines at most ${config.maxListEntries * 10} entries in all. \`truncated: true\` means it stopped early: narrow the directory, the query or \`include\`.`,
    config.followSymlinks
      ? "Symbolic links are followed only where their targets are within reach."
      : "Symbolic links are not followed.",
    "Entries at blocked or unreachable locations are left out, never opened.",
    relativePathsText(config.baseDir),
    SCOPE_TEXT,
  ].join(" ");
}

async function searchFiles(
  args: SearchFilesArguments,
  { config, paths, record: call, signal, approve }: FsCall,
): Promise<Invocation<SearchFilesToolResult>> {
  const opened = await paths.openRead(args.path);
  if (!opened.ok) return call.denied(opened.denial);
  const { handle, path: judged } = opened.value;
  const refuse = (refusal: FileRefusal) =>
    call.denied<SearchFilesResult>(
      createToolDenial("search", args.path, refusal.code, refusal.explanation),
    );
  const matcher = globMatcher(args.include);
  const budget = new SearchBudget(args.max_results, config.maxScanSize, config.maxListEntries * 10);
  try {
    await approve();
    const refusal = await walkOpened(
      {
        paths,
        policy: await paths.policy(),
        query: { query: args.query, ignoreCase: args.ignore_case },
        includes: (name) => matcher === undefined || matcher(name),
        budget,
        signal,
        visited: new Set(),
      },
      handle,
      judged,
      judged.absolute,
      0,
    );
    if (refusal !== undefined) return refuse(refusal);
  } finally {
    releaseReadOnly(handle);
  }
  return call.ran({
    path: judged.absolute,
    matches: budget.matches,
    files_searched: budget.filesSearched,
    files_skipped: budget.filesSkipped,
    truncated: budget.truncated,
  });
}

/**
 * `search_files`: the lines holding a literal text in the files under a directory,
 * judged by the grant's `fs_read` scope and by `config` — the directory, every
 * subdirectory and every file each judged and opened through core's mediated open,
 * blocked entries left out unopened —, binary and over-size files skipped, bounded in
 * matches, bytes read and entries examined, with a truncation flag.
 */
export function createSearchFilesTool(
  config: FileConfig = createFileConfig(),
): Tool<SearchFilesArguments, SearchFilesToolResult> {
  return defineFsTool(config, {
    name: "search_files",
    description: describe(config),
    inputSchema: argumentsSchema(),
    annotations: { title: "Search files", ...READ_ONLY_ANNOTATIONS },
    required: READ_TOOL_REQUIRED,
    run: searchFiles,
  });
}
