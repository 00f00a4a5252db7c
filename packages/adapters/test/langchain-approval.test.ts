import { bridleLangChainTools } from "@agent-bridle/adapters/langchain";
import { Command, MemorySaver } from "@langchain/langgraph";
import {
  type AnyAgentMiddleware,
  createAgent,
  type HITLRequest,
  humanInTheLoopMiddleware,
  type Interrupt,
} from "langchain";
import { describe, expect, it } from "vitest";
import { scriptedChatModel, toolMessagesSeen } from "./helpers/langchain-model.js";
import { useProjects } from "./helpers/project.js";
import { FINAL_ANSWER } from "./helpers/scripted-calls.js";

// LangChain's own human in the loop (`humanInTheLoopMiddleware` of `createAgent`, which
// interrupts the graph before the tools run) in front of the adapter's tools. Linux only:
// the bash engine under the launcher.
const newProject = useProjects();

// langchain 1.5.14 types this middleware through `zod/v3` inference, which fails under
// `exactOptionalPropertyTypes` (this repository's setting; plain `strict` accepts the code
// as written): its options come out as `never` and the middleware as not assignable.
const HUMAN_IN_THE_LOOP = humanInTheLoopMiddleware({
  interruptOn: { write_file: true, shell: true },
} as never) as unknown as AnyAgentMiddleware;

describe.skipIf(process.platform !== "linux")("LangChain.js: human in the loop", () => {
  it("nothing runs until approved; a rejection reaches the model and runs nothing", async () => {
    const project = newProject();
    const model = scriptedChatModel([
      [{ tool: "write_file", input: { path: "approved.txt", content: "yes\n" } }],
      [{ tool: "shell", input: { cmd: "echo ran > refused.txt" } }],
    ]);
    const agent = createAgent({
      model,
      tools: bridleLangChainTools({ registry: project.registry, grant: project.grant }),
      middleware: [HUMAN_IN_THE_LOOP],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "one" } };
    const pending = (state: { __interrupt__?: unknown }) =>
      ((state.__interrupt__ ?? []) as Interrupt<HITLRequest>[]).flatMap(
        (interrupt) => interrupt.value?.actionRequests ?? [],
      );

    const first = await agent.invoke({ messages: [{ role: "user", content: "work" }] }, config);
    expect(pending(first).map((action) => action.name)).toEqual(["write_file"]);
    expect(project.has("approved.txt")).toBe(false);

    const second = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "approve" }] } }),
      config,
    );
    expect(project.read("approved.txt")).toBe("yes\n");
    expect(pending(second).map((action) => action.name)).toEqual(["shell"]);

    const third = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "reject", message: "the user said no" }] } }),
      config,
    );
    expect(third.messages.at(-1)?.content).toBe(FINAL_ANSWER);
    expect(project.has("refused.txt")).toBe(false);
    expect(project.programsSpawned()).toEqual([]);
    expect(toolMessagesSeen(model).at(-1)?.text).toContain("the user said no");
  });
});
