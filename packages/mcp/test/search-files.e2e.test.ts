import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildPackage, serverBin, serverEnv, useTempDirs } from "./helpers.js";

// Issue 17 point 9: search_files served by the MCP server, over the SDK's client.
const tempDir = useTempDirs();
const clients: Client[] = [];

beforeAll(() => buildPackage(), 120_000);
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function start(project: string, home: string): Promise<Client> {
  const grant = JSON.stringify({
    fs_read: { only: [project] },
    fs_write: { only: [] },
    exec: { only: [] },
    net: { only: [] },
    max_calls: "unlimited",
    valid_for_generation: "all",
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverBin],
    env: serverEnv(home, { AGENT_BRIDLE_CAVEATS: grant, AGENT_BRIDLE_BASE_DIR: project }),
    stderr: "ignore",
  });
  const client = new Client({ name: "bridle-search-files", version: "0.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type Result = Awaited<ReturnType<Client["callTool"]>>;
const text = (result: Result) =>
  (result.content as { text?: string }[]).map((part) => part.text ?? "").join("");

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
    expect(text(result)).toContain("// TODO rename");
    expect(text(result)).toContain(join(project, "src", "a.ts"));
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
    expect(text(result)).not.toContain("CANARY-OUT");
  });
});
