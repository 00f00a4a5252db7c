import { jsonSchema, type Tool, type ToolSet, tool } from "ai";
import { type AdapterOptions, type BoundTool, bindTools } from "../bound-tools.js";
import { liveCall } from "../live-call.js";
import { type BridleToolOutput, toModelOutputOf } from "./tool-output.js";

/**
 * Which calls wait for the host's answer through the AI SDK's tool approval
 * (`tool-approval-request` parts; the host answers with a `tool-approval-response`).
 * A function is asked per call with the tool's name and the model's input.
 */
export type AiNeedsApproval =
  | boolean
  | ((toolName: string, input: unknown) => boolean | PromiseLike<boolean>);

export interface AiToolSetOptions extends AdapterOptions {
  /** Default `false`: no SDK approval (the registry's approval hook, if any, still runs). */
  readonly needsApproval?: AiNeedsApproval | undefined;
}

export type BridleTool = Tool<unknown, BridleToolOutput>;

function aiTool(bound: BoundTool, needsApproval: AiNeedsApproval): BridleTool {
  return tool<unknown, BridleToolOutput>({
    description: bound.description,
    inputSchema: jsonSchema(bound.inputSchema),
    metadata: { annotations: { ...bound.annotations } },
    needsApproval:
      typeof needsApproval === "boolean"
        ? needsApproval
        : (input: unknown) => needsApproval(bound.name, input),
    async *execute(input, { abortSignal }) {
      for await (const step of liveCall(bound, input, abortSignal)) {
        yield step.done
          ? { status: "done", result: step.result }
          : { status: "running", ...step.chunk };
      }
    },
    toModelOutput: ({ output }) => toModelOutputOf(output),
  });
}

/**
 * The registry's tools as an AI SDK `ToolSet` for `generateText`, `streamText` and
 * `ToolLoopAgent`, every call under `options.grant`. Input schemas are the JSON Schemas
 * the registry advertises over MCP (from the tools' zod schemas; the registry validates
 * the arguments itself), `execute` dispatches with the call's `abortSignal` (an abort
 * ends the call's processes), live shell output is streamed as preliminary tool results,
 * and `toModelOutput` gives the model stdout, stderr, the exit code and the denials.
 */
export function bridleToolSet(options: AiToolSetOptions): ToolSet {
  const needsApproval = options.needsApproval ?? false;
  const tools: Record<string, BridleTool> = {};
  for (const bound of bindTools(options)) tools[bound.name] = aiTool(bound, needsApproval);
  return Object.freeze(tools);
}
