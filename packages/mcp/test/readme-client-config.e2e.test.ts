import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildPackage, repoRoot, serverBin, useTempDirs } from "./helpers.js";

// The README's MCP client configuration works as written (issue 17, "Done when").
const tempDir = useTempDirs();
const clients: Client[] = [];
const onBrushPlatform = process.platform === "linux" || process.platform === "darwin";

beforeAll(() => buildPackage(), 120_000);
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

interface ServerEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The first JSON block of the README's MCP section, with the project and checkout filled in. */
function readmeServer(project: string): ServerEntry {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Using it from an MCP client"));
  const block = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error("no JSON block in the README's MCP section");
  const filled = block
    .replaceAll("/home/me/project", project)
    .replaceAll("/path/to/agent-bridle/packages/mcp/dist/bin/agent-bridle-mcp.js", serverBin);
  const config = JSON.parse(filled) as { mcpServers: Record<string, ServerEntry> };
  const entry = config.mcpServers["agent-bridle"];
  if (entry === undefined) throw new Error("no agent-bridle server in the README's block");
  return entry;
}

describe.skipIf(!onBrushPlatform)("the README's MCP client configuration", () => {
  it("serves a shell call without cwd in the project and keeps the blocked .env out", async () => {
    const project = tempDir();
    writeFileSync(join(project, "README.txt"), "project readme\n");
    writeFileSync(join(project, ".env"), "SECRET=canary-readme-44\n");
    const entry = readmeServer(project);
    const transport = new StdioClientTransport({
      command: entry.command === "node" ? process.execPath : entry.command,
      args: entry.args,
      // What a client adds: its PATH and a HOME.
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tempDir(), ...entry.env },
      stderr: "pipe",
    });
    const client = new Client({ name: "readme-client", version: "0.0.0" });
    await client.connect(transport);
    clients.push(client);
    const listed = await client.callTool({ name: "shell", arguments: { cmd: "ls -a; cat .env" } });
    const body = (listed.content as { text?: string }[]).map((part) => part.text ?? "").join("");
    expect(listed.isError, body).toBe(false);
    expect(body).toContain("README.txt");
    expect(body).not.toContain("canary");
    const secret = await client.callTool({ name: "read_file", arguments: { path: ".env" } });
    expect(secret.isError).toBe(true);
    const readme = await client.callTool({ name: "read_file", arguments: { path: "README.txt" } });
    expect(readme.isError).toBe(false);
    expect(readdirSync(project).sort()).toEqual([".env", "README.txt"]);
  });
});
