import type * as z from "zod";
import type { Caveats } from "../caveats/caveats.js";
import { top } from "../caveats/caveats.js";
import type { ToolContext } from "../context/tool-context.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { ShellOutputObserver } from "../observer/shell-output-observer.js";
import { type Invocation, ran } from "./invocation.js";
import { type ToolAnnotations, ToolAnnotationsSchema } from "./tool-annotations.js";

export interface InvokeOptions {
  /** Aborted when the caller cancels the dispatch; tools stop and clean up. */
  readonly signal: AbortSignal;
  /**
   * This call's live output (spec §8), from `DispatchOptions.observer`. Tools that produce
   * output deliver it in addition to any observer they were built with
   * (`joinOutputObservers`); other tools ignore it.
   */
  readonly observer?: ShellOutputObserver;
  /**
   * Present when the host has an approval hook and the tool `approvesAfterChecks`: the
   * tool awaits it once its own checks passed (paths judged, programs admitted) and before
   * anything takes effect, so a person is asked only about a call that would run, and a
   * refused call never asks. It resolves when approved and rejects when refused; the
   * rejection must propagate out of `invoke` (the registry answers `APPROVAL_REFUSED`).
   */
  readonly approve?: () => Promise<void>;
}

/**
 * The tool contract (spec §14). The registry validates arguments with `inputSchema`
 * before anything else, so `invoke` receives the parsed value.
 */
export interface Tool<Args = unknown, Result = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<Args>;
  readonly annotations: ToolAnnotations;
  /** The authority this tool may need, as a ceiling; default `top()` (confined by the grant). */
  readonly required: Caveats;
  /**
   * The tool asks approval itself (`InvokeOptions.approve`) after its checks; otherwise
   * the registry asks before invoking it.
   */
  readonly approvesAfterChecks: boolean;
  invoke(args: Args, cx: ToolContext, options: InvokeOptions): Promise<Result>;
  invokeAccounted(args: Args, cx: ToolContext, options: InvokeOptions): Promise<Invocation<Result>>;
  /** A non-executing inventory for the approval hook (shell tools: the `shell_inspection`). */
  inspect?(args: Args): Promise<unknown>;
  /** Releases what the tool holds (for example a warm worker). */
  close?(): Promise<void>;
}

export interface ToolDefinition<Args, Result> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<Args>;
  readonly annotations: ToolAnnotations;
  readonly required?: Caveats;
  /** See `Tool.approvesAfterChecks`; default false. */
  readonly approvesAfterChecks?: boolean;
  invoke(args: Args, cx: ToolContext, options: InvokeOptions): Promise<Result>;
  invokeAccounted?(
    args: Args,
    cx: ToolContext,
    options: InvokeOptions,
  ): Promise<Invocation<Result>>;
  inspect?(args: Args): Promise<unknown>;
  close?(): Promise<void>;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Builds a frozen `Tool`; `required` defaults to `top()` and `invokeAccounted` to "ran". */
export function defineTool<Args, Result>(
  definition: ToolDefinition<Args, Result>,
): Tool<Args, Result> {
  if (!TOOL_NAME.test(definition.name)) {
    throw new ConfigurationError(
      `tool name ${JSON.stringify(definition.name)} must match ${TOOL_NAME}`,
    );
  }
  const annotations = ToolAnnotationsSchema.parse(definition.annotations);
  const invoke = definition.invoke.bind(definition);
  const tool: Tool<Args, Result> = {
    name: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema,
    annotations: Object.freeze(annotations),
    required: definition.required ?? top(),
    approvesAfterChecks: definition.approvesAfterChecks === true,
    invoke,
    invokeAccounted:
      definition.invokeAccounted?.bind(definition) ??
      (async (args, cx, options) => ran(await invoke(args, cx, options))),
    ...(definition.inspect ? { inspect: definition.inspect.bind(definition) } : {}),
    ...(definition.close ? { close: definition.close.bind(definition) } : {}),
  };
  return Object.freeze(tool);
}
