import { bridleToolSet } from "@agent-bridle/adapters/ai";
import { bridleLangChainTools } from "@agent-bridle/adapters/langchain";
import { bridleAgentsTools } from "@agent-bridle/adapters/openai-agents";
import { Agent, Runner } from "@openai/agents";
import { generateText, stepCountIs } from "ai";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { ScriptedAgentsModel } from "./helpers/agents-model.js";
import { resultsSeen, scriptedModel } from "./helpers/ai-model.js";
import { scriptedChatModel, toolMessagesSeen } from "./helpers/langchain-model.js";
import { type Project, useProjects } from "./helpers/project.js";
import type { Script } from "./helpers/scripted-calls.js";

// One model turn with three calls, which each framework runs concurrently, under a grant
// of two calls: exactly two run and one is refused, whichever it is. Linux only: the
// bash engine under the launcher.
const newProject = useProjects();
const BUDGET_TEXT = "denied: call budget (max_calls) exhausted";

const oneTurn: Script = [
  [
    { tool: "shell", input: { cmd: "echo ran > by-shell.txt" } },
    { tool: "write_file", input: { path: "by-write.txt", content: "ran\n" } },
    { tool: "write_file", input: { path: "by-second-write.txt", content: "ran\n" } },
  ],
];

function expectExactlyTwoRan(project: Project, texts: readonly string[]) {
  expect(texts).toHaveLength(3);
  expect(texts.filter((text) => text === BUDGET_TEXT)).toHaveLength(1);
  const written = ["by-shell.txt", "by-write.txt", "by-second-write.txt"].filter((name) =>
    project.has(name),
  );
  expect(written).toHaveLength(2);
  expect(project.grant.remainingCalls).toBe(0);
}

describe.skipIf(process.platform !== "linux")("max_calls across concurrent calls", () => {
  it("AI SDK", async () => {
    const project = newProject({ maxCalls: 2 });
    const model = scriptedModel(oneTurn);
    const tools = bridleToolSet({ registry: project.registry, grant: project.grant });
    await generateText({ model, tools, prompt: "work", stopWhen: stepCountIs(5) });
    const texts = resultsSeen(model).map(({ output }) =>
      output.type === "execution-denied" ? String(output.reason) : String(output.value),
    );
    expectExactlyTwoRan(project, texts);
  });

  it("LangChain.js", async () => {
    const project = newProject({ maxCalls: 2 });
    const model = scriptedChatModel(oneTurn);
    const tools = bridleLangChainTools({ registry: project.registry, grant: project.grant });
    await createAgent({ model, tools }).invoke({ messages: [{ role: "user", content: "work" }] });
    expectExactlyTwoRan(
      project,
      toolMessagesSeen(model).map((message) => message.text),
    );
  });

  it("OpenAI Agents SDK", async () => {
    const project = newProject({ maxCalls: 2 });
    const model = new ScriptedAgentsModel(oneTurn);
    const tools = bridleAgentsTools({ registry: project.registry, grant: project.grant });
    await new Runner({ tracingDisabled: true }).run(
      new Agent({ name: "worker", model, tools }),
      "work",
    );
    expectExactlyTwoRan(
      project,
      model.outputsSeen().map((output) => output.text),
    );
  });
});
