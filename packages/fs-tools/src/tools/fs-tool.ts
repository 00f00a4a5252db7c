import {
  type Caveats,
  defineTool,
  type Invocation,
  type Tool,
  type ToolAnnotations,
  type ToolContext,
} from "@agent-bridle/core";
import type * as z from "zod";
import type { FileConfig } from "../config/file-config.js";
import { ToolPaths } from "../paths/tool-paths.js";
import { CallRecord, type FsToolResult } from "../result/fs-result.js";

/** What one call of an fs tool works with. */
export interface FsCall {
  readonly cx: ToolContext;
  readonly config: FileConfig;
  /** The call's view of the path rules (grant, `FileConfig`, the registry's policy). */
  readonly paths: ToolPaths;
  /** The call's result facts and refusals. */
  readonly record: CallRecord;
  readonly signal: AbortSignal;
  /**
   * The host's approval, asked once the call's checks passed and before anything of a
   * file is read out or written (a no-op without an approval hook). A refusal rejects,
   * and the rejection must propagate.
   */
  approve(): Promise<void>;
}

export interface FsToolDefinition<Args, Result> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<Args>;
  readonly annotations: ToolAnnotations;
  readonly required?: Caveats;
  run(args: Args, call: FsCall): Promise<Invocation<FsToolResult<Result>>>;
}

const APPROVED = async () => {};

/**
 * The skeleton every fs tool shares: one `FsCall` per invocation, `invoke` returning the
 * accounted result's value, and approval asked by the tool itself after its checks.
 */
export function defineFsTool<Args, Result>(
  config: FileConfig,
  definition: FsToolDefinition<Args, Result>,
): Tool<Args, FsToolResult<Result>> {
  const run = (
    args: Args,
    cx: ToolContext,
    options: { readonly signal: AbortSignal; readonly approve?: () => Promise<void> },
  ) =>
    definition.run(args, {
      cx,
      config,
      paths: new ToolPaths(cx, config),
      record: new CallRecord(cx),
      signal: options.signal,
      approve: options.approve ?? APPROVED,
    });
  return defineTool({
    name: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema,
    annotations: definition.annotations,
    ...(definition.required === undefined ? {} : { required: definition.required }),
    approvesAfterChecks: true,
    async invoke(args, cx, options) {
      return (await run(args, cx, options)).value;
    },
    invokeAccounted: run,
  });
}
