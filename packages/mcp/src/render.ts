import { type ModelResult, modelResultOf, modelResultOfError } from "agent-bridle";

/** An MCP tool result (`CallToolResult`) for one dispatch outcome. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

export interface RenderOptions {
  /** UTF-8 bytes of each of stdout and stderr a model receives; head and tail are kept. */
  readonly maxModelOutputBytes?: number | undefined;
}

function toolResultOf(result: ModelResult): ToolResult {
  const content: ToolResult["content"] = [{ type: "text", text: result.text }];
  return result.structured === undefined
    ? { content, isError: result.isError }
    : { content, structuredContent: result.structured, isError: result.isError };
}

/**
 * Maps a dispatch outcome to a tool result (ADR 0014), with the facade's model shaping
 * (`modelResultOf`, shared with the agent-framework adapters): a run always reaches the
 * model with its exit code, stdout and stderr (capped per stream, head and tail kept) and
 * the denials recorded during it, `isError: true` only when it timed out; an envelope
 * where nothing ran is `isError: true` with the reasons as text; any other envelope is
 * its compact JSON. Each carries the envelope (output capped the same way) as
 * `structuredContent`.
 */
export function resultOfEnvelope(envelope: unknown, options: RenderOptions = {}): ToolResult {
  return toolResultOf(modelResultOf(envelope, options));
}

/** A thrown refusal or failure as a tool result: `isError: true`, the message as text. */
export function resultOfError(error: unknown): ToolResult {
  return toolResultOf(modelResultOfError(error));
}
