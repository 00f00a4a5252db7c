import { PassThrough } from "node:stream";
import { serveMcp } from "@agent-bridle/mcp";
import type { Grant, Registry } from "agent-bridle";

/** One tool as an MCP client sees it in `tools/list`. */
export interface McpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations: Record<string, unknown>;
}

/**
 * What the MCP server advertises for `registry`: an initialize handshake and `tools/list`
 * over the server's own stdio framing (in memory). Serving closes the registry.
 */
export async function mcpToolList(registry: Registry, grant: Grant): Promise<McpTool[]> {
  const input = new PassThrough();
  const output = new PassThrough();
  const server = await serveMcp({ registry, grant, input, output });
  let buffered = "";
  const answer = new Promise<McpTool[]>((resolve, reject) => {
    output.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const message = JSON.parse(buffered.slice(0, end)) as {
          id?: number;
          result?: { tools?: McpTool[] };
          error?: unknown;
        };
        buffered = buffered.slice(end + 1);
        if (message.id !== 2) continue;
        if (message.result?.tools) resolve(message.result.tools);
        else reject(new Error(`tools/list failed: ${JSON.stringify(message.error)}`));
      }
    });
  });
  const send = (message: unknown) => input.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "adapters-test", version: "0" },
    },
  });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
  try {
    return await answer;
  } finally {
    await server.close();
  }
}
