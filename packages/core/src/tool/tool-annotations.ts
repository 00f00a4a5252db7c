import * as z from "zod";

/** MCP tool annotations: hints for clients, never trusted for authorization. */
export const ToolAnnotationsSchema = z.strictObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean(),
  destructiveHint: z.boolean(),
  idempotentHint: z.boolean(),
  openWorldHint: z.boolean(),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;
