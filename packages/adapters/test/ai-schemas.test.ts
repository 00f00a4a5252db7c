import { bridleToolSet } from "@agent-bridle/adapters/ai";
import { asSchema, generateText } from "ai";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "./helpers/ai-model.js";
import { mcpToolList } from "./helpers/mcp-tools.js";
import { useProjects } from "./helpers/project.js";

const newProject = useProjects();

describe("AI SDK: what the model is shown", () => {
  it("has the fields, descriptions and annotations the registry advertises over MCP", async () => {
    const project = newProject();
    const tools = bridleToolSet({ registry: project.registry, grant: project.grant });
    const overMcp = await mcpToolList(project.registry, project.grant);
    expect(Object.keys(tools).sort()).toEqual(overMcp.map((tool) => tool.name).sort());
    expect(overMcp.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["read_file", "shell", "write_file"]),
    );
    for (const advertised of overMcp) {
      const tool = tools[advertised.name];
      expect(tool?.description).toBe(advertised.description);
      expect(await asSchema(tool?.inputSchema).jsonSchema).toEqual(advertised.inputSchema);
      expect(tool?.metadata).toEqual({ annotations: advertised.annotations });
    }
    // What the SDK hands the model: the same names, descriptions and input schemas.
    const model = scriptedModel([]);
    await generateText({ model, tools, prompt: "list your tools" });
    const seen = model.doGenerateCalls[0]?.tools ?? [];
    expect(
      seen.map((tool) => ({
        name: tool.name,
        description: tool.type === "function" ? tool.description : undefined,
        inputSchema: tool.type === "function" ? tool.inputSchema : undefined,
      })),
    ).toEqual(
      overMcp.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    );
  });
});
