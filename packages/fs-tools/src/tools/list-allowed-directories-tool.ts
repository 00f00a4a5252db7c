import path from "node:path";
import type { Invocation, ListAllowedDirectoriesResult, Tool } from "@agent-bridle/core";
import * as z from "zod";
import { createFileConfig, type FileConfig } from "../config/file-config.js";
import type { FsToolResult } from "../result/fs-result.js";
import { READ_ONLY_ANNOTATIONS } from "./arguments.js";
import { defineFsTool, type FsCall } from "./fs-tool.js";
import { READ_TOOL_REQUIRED } from "./required-caveats.js";

export const ListAllowedDirectoriesArgumentsSchema = z.strictObject({});
export type ListAllowedDirectoriesArguments = z.infer<typeof ListAllowedDirectoriesArgumentsSchema>;
export type ListAllowedDirectoriesToolResult = FsToolResult<ListAllowedDirectoriesResult>;

const DESCRIPTION =
  "List the directories the file tools can read under: the granted directories within the configured allowed paths, blocked or unreachable ones left out. `unrestricted: true` (with no directories) means any path that is not blocked can be read. Takes no arguments.";

function within(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * The meet of two directory lists (`undefined`: unbounded): the entries of each that lie
 * within an entry of the other, so the result never reaches beyond either.
 */
export function meetDirectories(
  a: readonly string[] | undefined,
  b: readonly string[] | undefined,
): string[] | undefined {
  if (a === undefined) return b === undefined ? undefined : [...b];
  if (b === undefined) return [...a];
  const met = [
    ...a.filter((entry) => b.some((other) => within(entry, other))),
    ...b.filter((entry) => a.some((other) => within(entry, other))),
  ];
  return [...new Set(met)];
}

async function listAllowedDirectories(
  _args: ListAllowedDirectoriesArguments,
  { cx, config, paths, record: call, approve }: FsCall,
): Promise<Invocation<ListAllowedDirectoriesToolResult>> {
  const granted = cx.caveats.fs_read === "all" ? undefined : cx.caveats.fs_read.only;
  const candidates = meetDirectories(
    granted?.filter((entry) => path.isAbsolute(entry)).map((entry) => path.resolve(entry)),
    config.allowedPaths?.map((entry) => path.resolve(entry)),
  );
  await approve();
  if (candidates === undefined) return call.ran({ directories: [], unrestricted: true });
  // Each is judged as any path would be: what the tools cannot read is not listed.
  const judged = await Promise.all(
    candidates.map(async (directory) => {
      const decision = await paths.judgeLocation(directory, "read", directory);
      return decision.ok && decision.value.directory ? directory : undefined;
    }),
  );
  const directories = judged.filter((entry): entry is string => entry !== undefined).sort();
  return call.ran({ directories, unrestricted: false });
}

/**
 * `list_allowed_directories`: where the fs tools can read — the grant's `fs_read` roots
 * met with `FileConfig.allowedPaths`, each judged like any path (blocked, missing or
 * unreachable ones left out), so it never reveals more than the grant.
 */
export function createListAllowedDirectoriesTool(
  config: FileConfig = createFileConfig(),
): Tool<ListAllowedDirectoriesArguments, ListAllowedDirectoriesToolResult> {
  return defineFsTool(config, {
    name: "list_allowed_directories",
    description: DESCRIPTION,
    inputSchema: ListAllowedDirectoriesArgumentsSchema,
    annotations: { title: "List allowed directories", ...READ_ONLY_ANNOTATIONS },
    required: READ_TOOL_REQUIRED,
    run: listAllowedDirectories,
  });
}
