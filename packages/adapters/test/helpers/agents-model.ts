import { type Model, type ModelRequest, type ModelResponse, Usage } from "@openai/agents";
import { FINAL_ANSWER, type Script } from "./scripted-calls.js";

/** A tool result as the model read it in its input. */
export interface SeenOutput {
  readonly tool: string;
  readonly text: string;
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  const text = (output as { text?: unknown } | null)?.text;
  return typeof text === "string" ? text : JSON.stringify(output);
}

/**
 * A stub of the Agents SDK's `Model` interface, scripted: turn n makes the calls of
 * `script[n]` (a turn is counted by the function calls already in the input), the turn
 * after the last answers with text. It records every request.
 */
export class ScriptedAgentsModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #script: Script;

  constructor(script: Script) {
    this.#script = script;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const items = typeof request.input === "string" ? [] : request.input;
    const callsMade = items.filter((item) => item.type === "function_call").length;
    let step = 0;
    for (let made = 0; step < this.#script.length && made < callsMade; step += 1)
      made += this.#script[step]?.length ?? 0;
    const calls = this.#script[step];
    if (calls === undefined) {
      return {
        usage: new Usage(),
        output: [
          {
            type: "message",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: FINAL_ANSWER }],
          },
        ],
      };
    }
    return {
      usage: new Usage(),
      output: calls.map((call, index) => ({
        type: "function_call" as const,
        callId: `call-${step}-${index}`,
        name: call.tool,
        arguments: JSON.stringify(call.input),
        status: "completed" as const,
      })),
    };
  }

  // biome-ignore lint/correctness/useYield: the scripted runs do not stream
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("the scripted model does not stream");
  }

  /** What the model read in each tool result of its last request, in order. */
  outputsSeen(): SeenOutput[] {
    const last = this.requests.at(-1);
    const items = last === undefined || typeof last.input === "string" ? [] : last.input;
    return items
      .filter((item) => item.type === "function_call_result")
      .map((item) => ({ tool: item.name, text: outputText(item.output) }));
  }
}
