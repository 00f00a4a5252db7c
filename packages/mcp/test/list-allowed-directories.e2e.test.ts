import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { grantJson, resultText, serverEnv, useTempDirs } from "./helpers.js";
import { startClient, useBuiltServer } from "./mcp-session.js";

// Issue 17 point 9: list_allowed_directories, directory_tree and the shell's granted programs, served by
// the MCP server, over the SDK's client.
const tempDir = useTempDirs();

useBuiltServer();

describe("list_allowed_directories over MCP", () => {
  it("names the granted directories within the configured ones, never the rest", async () => {
    const [project, outside, home] = [tempDir(), tempDir(), tempDir()];
    mkdirSync(join(project, "docs"));
    const client = await startClient(
      serverEnv(home, {
        AGENT_BRIDLE_CAVEATS: grantJson({ fs_read: { only: [project] } }),
        AGENT_BRIDLE_BASE_DIR: project,
      }),
    );
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === "list_allowed_directories");
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
    const result = await client.callTool({ name: "list_allowed_directories", arguments: {} });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({
      result: { directories: [project], unrestricted: false },
    });
    expect(resultText(result)).not.toContain(outside);
  });
});

describe("directory_tree over MCP", () => {
  it("lists the tree under the base directory; a directory outside the grant is refused (isError)", async () => {
    const [project, outside, home] = [tempDir(), tempDir(), tempDir()];
    mkdirSync(join(project, "src"));
    writeFileSync(join(project, "src", "a.ts"), "a");
    writeFileSync(join(outside, "secret.txt"), "CANARY-OUT");
    const client = await startClient(
      serverEnv(home, {
        AGENT_BRIDLE_CAVEATS: grantJson({ fs_read: { only: [project] } }),
        AGENT_BRIDLE_BASE_DIR: project,
      }),
    );
    const result = await client.callTool({ name: "directory_tree", arguments: { path: "." } });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({
      result: {
        entries: [
          { path: "src", type: "directory", depth: 1 },
          { path: "src/a.ts", type: "file", depth: 2 },
        ],
        truncated: false,
      },
    });
    const refused = await client.callTool({ name: "directory_tree", arguments: { path: outside } });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).not.toContain("secret.txt");
  });
});

describe("the shell tool's description", () => {
  it("names the programs the session's grant lets it start", async () => {
    const home = tempDir();
    const client = await startClient(
      serverEnv(home, {
        AGENT_BRIDLE_CAVEATS: grantJson({
          fs_read: { only: ["/usr/local/bin", "/usr/bin", "/bin"] },
          exec: { only: ["git", "ls"] },
        }),
        AGENT_BRIDLE_BASE_DIR: home,
      }),
    );
    const { tools } = await client.listTools();
    const shell = tools.find((candidate) => candidate.name === "shell");
    expect(shell?.description).toContain("Programs granted: git, ls");
    const readFile = tools.find((candidate) => candidate.name === "read_file");
    expect(readFile?.description).not.toContain("Programs granted");
  });
});
