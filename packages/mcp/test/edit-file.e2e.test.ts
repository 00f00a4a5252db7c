import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { grantJson, resultText, serverEnv, useTempDirs } from "./helpers.js";
import { startClient, useBuiltServer } from "./mcp-session.js";

// Issue 17 point 9: edit_file served by the MCP server, over the SDK's client.
const tempDir = useTempDirs();
useBuiltServer();

const start = (project: string, home: string) =>
  startClient(
    serverEnv(home, {
      AGENT_BRIDLE_CAVEATS: grantJson({
        fs_read: { only: [project] },
        fs_write: { only: [project] },
      }),
      AGENT_BRIDLE_BASE_DIR: project,
    }),
    "bridle-edit-file",
  );

describe("edit_file over MCP", () => {
  it("is listed, edits a file relative to the base directory and returns the diff", async () => {
    const [project, home] = [tempDir(), tempDir()];
    writeFileSync(join(project, "notes.txt"), "one\ntwo\nthree\n");
    const client = await start(project, home);
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === "edit_file");
    expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tool?.inputSchema.properties).toHaveProperty("edits");
    const result = await client.callTool({
      name: "edit_file",
      arguments: { path: "notes.txt", edits: [{ old_text: "two", new_text: "2" }] },
    });
    expect(result.isError).toBe(false);
    expect(readFileSync(join(project, "notes.txt"), "utf8")).toBe("one\n2\nthree\n");
    expect(resultText(result)).toContain("-two");
    expect(resultText(result)).toContain("+2");
  });

  it("refuses a missing old text in-band (isError) and writes nothing", async () => {
    const [project, home] = [tempDir(), tempDir()];
    writeFileSync(join(project, "notes.txt"), "one\n");
    const client = await start(project, home);
    const result = await client.callTool({
      name: "edit_file",
      arguments: { path: "notes.txt", edits: [{ old_text: "absent", new_text: "x" }] },
    });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/old_text does not occur/);
    expect(readFileSync(join(project, "notes.txt"), "utf8")).toBe("one\n");
  });
});
