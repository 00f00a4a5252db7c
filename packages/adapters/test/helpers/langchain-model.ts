import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { FINAL_ANSWER, type Script } from "./scripted-calls.js";

/** LangChain's fake tool-calling chat model (`@langchain/core/testing`), scripted. */
export function scriptedChatModel(script: Script) {
  const model = fakeModel();
  script.forEach((calls, step) => {
    model.respondWithTools(
      calls.map((call, index) => ({
        name: call.tool,
        args: call.input,
        id: `call-${step}-${index}`,
      })),
    );
  });
  return model.respond(new AIMessage(FINAL_ANSWER));
}

/** A tool result as the model reads it: the message's text and status. */
export interface SeenToolMessage {
  readonly tool: string | undefined;
  readonly text: string;
  readonly status: string | undefined;
}

/** The tool messages the model was sent on its last call, in order. */
export function toolMessagesSeen(model: ReturnType<typeof scriptedChatModel>): SeenToolMessage[] {
  const last = model.calls.at(-1)?.messages ?? [];
  return (last as BaseMessage[]).filter(ToolMessage.isInstance).map((message) => ({
    tool: message.name,
    text: typeof message.content === "string" ? message.content : JSON.stringify(message.content),
    status: message.status,
  }));
}
