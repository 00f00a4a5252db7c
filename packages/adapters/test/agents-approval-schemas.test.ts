import { bridleAgentsTools } from "@agent-bridle/adapters/openai-agents";
import { Agent, Runner } from "@openai/agents";
import { describe, expect, it } from "vitest";
import { ScriptedAgentsModel } from "./helpers/agents-model.js";
import { mcpToolList } from "./helpers/mcp-tools.js";
import { useProjects } from "./helpers/project.js";
import { FINAL_ANSWER } from "./helpers/scripted-calls.js";

const newProject = useProjects();
const runner = new Runner({ tracingDisabled: true });

describe("OpenAI Agents SDK: what the model is shown", () => {
  it("has the fields, descriptions and annotations the registry advertises over MCP", async () => {
    const project = newProject();
    const tools = bridleAgentsTools({ registry: project.registry, grant: project.grant });
    const overMcp = await mcpToolList(project.registry, project.grant);
    expect(tools.map((tool) => tool.annotations)).toEqual(overMcp.map((tool) => tool.annotations));
    // What the runner hands the model: the serialized tools of the request.
    const model = new ScriptedAgentsModel([]);
    await runner.run(new Agent({ name: "worker", model, tools }), "list your tools");
    const seen = (model.requests[0]?.tools ?? []).map((tool) => ({
      name: tool.name,
      description: "description" in tool ? tool.description : undefined,
      parameters: "parameters" in tool ? tool.parameters : undefined,
    }));
    expect(seen).toEqual(
      overMcp.map(({ name, description, inputSchema }) => ({
        name,
        description,
        parameters: inputSchema,
      })),
    );
  });
});

// Linux only: the bash engine under the launcher.
describe.skipIf(process.platform !== "linux")("OpenAI Agents SDK: human in the loop", () => {
  it("interrupts for approval: nothing runs until approved, a rejection reaches the model", async () => {
    const project = newProject();
    const model = new ScriptedAgentsModel([
      [{ tool: "write_file", input: { path: "approved.txt", content: "yes\n" } }],
      [{ tool: "write_file", input: { path: "refused.txt", content: "no\n" } }],
    ]);
    const agent = new Agent({
      name: "worker",
      model,
      tools: bridleAgentsTools({
        registry: project.registry,
        grant: project.grant,
        needsApproval: (toolName) => toolName === "write_file",
      }),
    });
    const first = await runner.run(agent, "work");
    expect(first.interruptions).toHaveLength(1);
    expect(project.has("approved.txt")).toBe(false);
    for (const interruption of first.interruptions) first.state.approve(interruption);

    const second = await runner.run(agent, first.state);
    expect(project.has("approved.txt")).toBe(true);
    expect(second.interruptions).toHaveLength(1);
    for (const interruption of second.interruptions)
      second.state.reject(interruption, { message: "the user said no" });

    const third = await runner.run(agent, second.state);
    expect(third.finalOutput).toBe(FINAL_ANSWER);
    expect(project.has("refused.txt")).toBe(false);
    const seen = model.outputsSeen();
    expect(seen.at(-1)).toEqual({ tool: "write_file", text: "the user said no" });
  });
});
