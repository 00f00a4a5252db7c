/** One tool call a scripted model makes. */
export interface ScriptedCall {
  readonly tool: string;
  readonly input: Record<string, unknown>;
}

/** A scripted model's turns: the tool calls of each turn, then a final answer. */
export type Script = readonly (readonly ScriptedCall[])[];

export const FINAL_ANSWER = "done";
