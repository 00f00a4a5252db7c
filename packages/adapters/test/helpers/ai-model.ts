import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { FINAL_ANSWER, type Script } from "./scripted-calls.js";

// The provider's types, as the mock's own signature has them (`@ai-sdk/provider` is not
// a dependency of this package).
type LanguageModelV3CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type LanguageModelV3Content = Awaited<
  ReturnType<MockLanguageModelV3["doGenerate"]>
>["content"][number];

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A tool result as the model received it in its prompt. */
export interface SeenResult {
  readonly tool: string;
  readonly output: { readonly type: string; readonly value?: unknown; readonly reason?: unknown };
}

/** What the model read in each tool result, in order (from the last prompt). */
export function resultsSeen(model: MockLanguageModelV3): SeenResult[] {
  const last = model.doGenerateCalls.at(-1) ?? model.doStreamCalls.at(-1);
  const seen: SeenResult[] = [];
  for (const message of last?.prompt ?? []) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result")
        seen.push({ tool: part.toolName, output: part.output as SeenResult["output"] });
    }
  }
  return seen;
}

function turn(script: Script, options: LanguageModelV3CallOptions, offset: number) {
  const step = options.prompt.filter((message) => message.role === "assistant").length - offset;
  const calls = script[step];
  const content: LanguageModelV3Content[] =
    calls === undefined
      ? [{ type: "text", text: FINAL_ANSWER }]
      : calls.map((call, index) => ({
          type: "tool-call",
          toolCallId: `call-${step}-${index}`,
          toolName: call.tool,
          input: JSON.stringify(call.input),
        }));
  return { content, calls };
}

/**
 * The AI SDK's own mock language model (`ai/test`), scripted: turn n makes the calls of
 * `script[n]`, the turn after the last answers with text. `offset` skips assistant
 * messages already in the prompt (a conversation continued after an approval).
 */
export function scriptedModel(script: Script, offset = 0): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const { content, calls } = turn(script, options, offset);
      return {
        content,
        finishReason: { unified: calls === undefined ? "stop" : "tool-calls", raw: undefined },
        usage: USAGE,
        warnings: [],
      };
    },
  });
}

type StreamPart =
  Awaited<ReturnType<MockLanguageModelV3["doStream"]>>["stream"] extends ReadableStream<infer Part>
    ? Part
    : never;

/** The same script for `streamText`: each turn as a stream of parts. */
export function scriptedStreamingModel(script: Script): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: async (options) => {
      const { content, calls } = turn(script, options, 0);
      const parts: StreamPart[] = [];
      for (const part of content) {
        if (part.type === "text") {
          parts.push({ type: "text-start", id: "t" });
          parts.push({ type: "text-delta", id: "t", delta: part.text });
          parts.push({ type: "text-end", id: "t" });
        } else parts.push(part as StreamPart);
      }
      parts.push({
        type: "finish",
        finishReason: { unified: calls === undefined ? "stop" : "tool-calls", raw: undefined },
        usage: USAGE,
      });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}
