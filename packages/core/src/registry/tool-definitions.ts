import * as z from "zod";
import type { Tool } from "../tool/tool.js";
import type { ToolAnnotations } from "../tool/tool-annotations.js";

/** What an MCP client is shown for a tool (spec §13 case 13). */
export interface ToolDefinitionJson {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations: ToolAnnotations;
}

export function toolDefinitionOf(tool: Tool): ToolDefinitionJson {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.inputSchema, {
    io: "input",
  }) as Record<string, unknown>;
  return Object.freeze({
    name: tool.name,
    description: tool.description,
    inputSchema,
    annotations: tool.annotations,
  });
}
