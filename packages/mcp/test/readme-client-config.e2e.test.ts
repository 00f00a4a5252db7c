import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, resultText, serverBin, useTempDirs } from "./helpers.js";
import { startSession, useBuiltServer } from "./mcp-session.js";

// The README's MCP client configuration works as written (issue 17, "Done when").
const tempDir = useTempDirs();
const onBrushPlatform = process.platform === "linux" || process.platform === "darwin";
useBuiltServer();

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
    const { client } = await startSession(
      // What a client adds: its PATH and a HOME.
      { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tempDir(), ...entry.env },
      {
        name: "readme-client",
        command: entry.command === "node" ? process.execPath : entry.command,
        args: entry.args,
      },
    );
    const listed = await client.callTool({ name: "shell", arguments: { cmd: "ls -a; cat .env" } });
    const body = resultText(listed);
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
