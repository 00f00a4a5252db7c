import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch";
import { ToolMessage } from "@langchain/core/messages";
import { type DynamicStructuredTool, type ToolRunnableConfig, tool } from "@langchain/core/tools";
import type { ModelResult } from "agent-bridle";
import { type AdapterOptions, type BoundTool, bindTools } from "../bound-tools.js";

/** The custom event live shell output is dispatched as (`streamEvents`: `on_custom_event`). */
export const LIVE_OUTPUT_EVENT = "agent_bridle_output";

/** The payload of a `LIVE_OUTPUT_EVENT`: one decoded chunk of one stream of one call. */
export interface LiveOutputEvent {
  readonly tool: string;
  readonly toolCallId: string | undefined;
  readonly stream: "stdout" | "stderr";
  readonly text: string;
}

export type LangChainToolsOptions = AdapterOptions;

/** A LangGraph `writer` (custom stream mode), when the tool runs inside a graph. */
type Writer = (chunk: unknown) => void;

function liveOutput(bound: BoundTool, config: ToolRunnableConfig) {
  const writer = (config as { writer?: Writer }).writer;
  const toolCallId = config.toolCall?.id;
  return (stream: "stdout" | "stderr", text: string) => {
    const event: LiveOutputEvent = { tool: bound.name, toolCallId, stream, text };
    writer?.({ [LIVE_OUTPUT_EVENT]: event });
    dispatchCustomEvent(LIVE_OUTPUT_EVENT, event, config).catch(() => {
      // No run to attach it to (the tool was invoked bare): presentation only.
    });
  };
}

/**
 * The answer as LangChain carries it: inside an agent (a tool call), a `ToolMessage` with
 * the model's text, the envelope as `artifact` and `status: "error"` when nothing ran or
 * it failed; invoked bare, the text.
 */
function answer(bound: BoundTool, result: ModelResult, config: ToolRunnableConfig) {
  const toolCallId = config.toolCall?.id;
  if (toolCallId === undefined) return result.text;
  return new ToolMessage({
    content: result.text,
    artifact: result.structured,
    tool_call_id: toolCallId,
    name: bound.name,
    status: result.isError ? "error" : "success",
  });
}

function langChainTool(bound: BoundTool): DynamicStructuredTool {
  return tool(
    async (input: unknown, config: ToolRunnableConfig) => {
      const result = await bound.call(input, {
        signal: config.signal,
        onOutput: liveOutput(bound, config),
      });
      return answer(bound, result, config);
    },
    {
      name: bound.name,
      description: bound.description,
      schema: bound.inputSchema,
      metadata: { annotations: { ...bound.annotations } },
    },
  ) as DynamicStructuredTool;
}

/**
 * The registry's tools as LangChain structured tools (`tool()` of `@langchain/core/tools`)
 * for `createAgent`, LangGraph's `ToolNode` or `model.bindTools`, every call under
 * `options.grant`. Schemas are the JSON Schemas the registry advertises over MCP; the
 * call's `signal` aborts the dispatch (ending its processes); live shell output goes to
 * LangGraph's custom stream (`writer`) and to `streamEvents` as `LIVE_OUTPUT_EVENT`.
 * Approval: LangChain's `humanInTheLoopMiddleware` on the agent, or the registry's
 * approval hook.
 */
export function bridleLangChainTools(options: LangChainToolsOptions): DynamicStructuredTool[] {
  return bindTools(options).map(langChainTool);
}
