import type { ModelResult } from "agent-bridle";
import type { Tool } from "ai";

/**
 * What an AI SDK tool of this adapter returns: while a shell call runs (streamed as
 * preliminary tool results by `streamText`), the output that arrived since the previous
 * one; at the end, what the model reads.
 */
export type BridleToolOutput =
  | { readonly status: "running"; readonly stdout: string; readonly stderr: string }
  | { readonly status: "done"; readonly result: ModelResult };

/** The AI SDK's `ToolResultOutput` (not exported by `ai` itself). */
export type ToolResultOutput = Awaited<
  ReturnType<NonNullable<Tool<unknown, BridleToolOutput>["toModelOutput"]>>
>;

/**
 * The model's view (`toModelOutput`): a refusal (nothing ran) as the SDK's
 * `execution-denied` with the reasons, a failure or a timed-out run as `error-text`,
 * anything else as `text`; the text is the one MCP clients get.
 */
export function toModelOutputOf(output: BridleToolOutput): ToolResultOutput {
  if (output.status === "running")
    return { type: "text", value: `${output.stdout}${output.stderr}` };
  const { result } = output;
  if (result.kind === "refused") return { type: "execution-denied", reason: result.text };
  if (result.isError) return { type: "error-text", value: result.text };
  return { type: "text", value: result.text };
}
