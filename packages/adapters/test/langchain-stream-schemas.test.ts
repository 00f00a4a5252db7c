import { bridleLangChainTools, LIVE_OUTPUT_EVENT } from "@agent-bridle/adapters/langchain";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { scriptedChatModel, toolMessagesSeen } from "./helpers/langchain-model.js";
import { mcpToolList } from "./helpers/mcp-tools.js";
import { useProjects } from "./helpers/project.js";

const newProject = useProjects();

describe("LangChain.js: what the model is shown", () => {
  it("has the fields, descriptions and annotations the registry advertises over MCP", async () => {
    const project = newProject();
    const tools = bridleLangChainTools({ registry: project.registry, grant: project.grant });
    const overMcp = await mcpToolList(project.registry, project.grant);
    expect(tools.map((tool) => tool.name)).toEqual(overMcp.map((tool) => tool.name));
    for (const [index, advertised] of overMcp.entries()) {
      const tool = tools[index];
      // What a provider integration sends the model for a bound tool.
      expect(convertToOpenAITool(tool as NonNullable<typeof tool>).function).toEqual({
        name: advertised.name,
        description: advertised.description,
        parameters: advertised.inputSchema,
      });
      expect(tool?.metadata).toEqual({ annotations: advertised.annotations });
    }
  });
});

// Linux only: the bash engine under the launcher.
describe.skipIf(process.platform !== "linux")("LangChain.js: streaming", () => {
  it("streams a shell call's live output to the graph's custom stream before its result", async () => {
    const project = newProject();
    const model = scriptedChatModel([
      [{ tool: "shell", input: { cmd: "echo early; sleep 0.5; echo late" } }],
    ]);
    const agent = createAgent({
      model,
      tools: bridleLangChainTools({ registry: project.registry, grant: project.grant }),
    });
    const chunks: unknown[] = [];
    const stream = await agent.stream(
      { messages: [{ role: "user", content: "work" }] },
      { streamMode: "custom" },
    );
    for await (const chunk of stream) chunks.push(chunk);
    const live = chunks.map(
      (chunk) => (chunk as Record<string, { stream: string; text: string }>)[LIVE_OUTPUT_EVENT],
    );
    expect(live[0]).toMatchObject({ tool: "shell", stream: "stdout", text: "early\n" });
    expect(live.map((event) => event?.text).join("")).toBe("early\nlate\n");
    expect(toolMessagesSeen(model)[0]?.text).toContain("--- stdout ---\nearly\nlate\n");
  });
});
