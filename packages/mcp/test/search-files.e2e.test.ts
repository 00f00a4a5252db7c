import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { grantJson, resultText, serverEnv, useTempDirs } from "./helpers.js";
import { startClient, useBuiltServer } from "./mcp-session.js";

// Issue 17 point 9: search_files served by the MCP server, over the SDK's client.
const tempDir = useTempDirs();
useBuiltServer();

const start = (project: string, home: string) =>
  startClient(
    serverEnv(home, {
      AGENT_BRIDLE_CAVEATS: grantJson({ fs_read: { only: [project] } }),
      AGENT_BRIDLE_BASE_DIR: project,
    }),
    "bridle-search-files",
  );

describe("search_files over MCP", () => {
  it("is listed read-only, and finds a line relative to the base directory", async () => {
    const [project, home] = [tempDir(), tempDir()];
    mkdirSync(join(project, "src"));
    writeFileSync(join(project, "src", "a.ts"), "const x = 1;\n// TODO rename\n");
    const client = await start(project, home);
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === "search_files");
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tool?.inputSchema.properties).toHaveProperty("query");
    const result = await client.callTool({
      name: "search_files",
      arguments: { path: ".", query: "TODO" },
    });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toContain("// TODO rename");
    expect(resultText(result)).toContain(join(project, "src", "a.ts"));
  });

  it("refuses a directory outside the grant in-band (isError), returning nothing of it", async () => {
    const [project, outside, home] = [tempDir(), tempDir(), tempDir()];
    writeFileSync(join(outside, "secret.txt"), "CANARY-OUT");
    const client = await start(project, home);
    const result = await client.callTool({
      name: "search_files",
      arguments: { path: outside, query: "CANARY" },
    });
    expect(result.isError).toBe(true);
    expect(resultText(result)).not.toContain("CANARY-OUT");
  });
});
