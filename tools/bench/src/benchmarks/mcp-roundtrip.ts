import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type Grant, parseCaveats, type Registry, registry } from "agent-bridle";
import type { RatioBenchmark, RatioTarget } from "../benchmark.js";

// One `tools/call` of read_file (a 4 KiB file) to the built `agent-bridle-mcp` over stdio
// with the SDK's client (JSON-RPC framing both ways, the SDK's request handling, the
// frame limiter, the concurrency cap, the dispatch, the result mapping), against the same
// call dispatched directly on a facade registry in this process.
//
// Target: ≤ 1.2× the direct dispatch + 2 ms. The runner knows a fixed ratio or a fixed
// allowance, not both; the target is therefore an allowance of 0.2 × (the direct dispatch
// measured in setup) + 2 ms, which the runner prints as the equivalent ratio for the run.
const FILE_BYTES = 4096;
let root = "";
let file = "";
let client: Client | undefined;
let direct: Registry | undefined;
let grant: Grant | undefined;
let baselineEstimateMs = 1;

function grantJson(directory: string) {
  return {
    fs_read: { only: [directory] },
    fs_write: { only: [] },
    exec: "all",
    net: "all",
    max_calls: "unlimited",
    valid_for_generation: "all",
  };
}

function serverBin(): string {
  // The package's main entry is dist/index.js; the bin sits beside it.
  return join(
    dirname(fileURLToPath(import.meta.resolve("@agent-bridle/mcp"))),
    "bin/agent-bridle-mcp.js",
  );
}

async function callDirect(): Promise<void> {
  const value = (await direct?.dispatch("read_file", { path: file }, grant as Grant)) as {
    result?: unknown;
  };
  if (value?.result === undefined) throw new Error("direct read_file did not return a result");
}

async function callOverStdio(): Promise<void> {
  const result = await client?.callTool({ name: "read_file", arguments: { path: file } });
  if (result?.isError !== false) throw new Error("read_file over MCP failed");
}

const target = {
  get allowanceMs() {
    return 0.2 * baselineEstimateMs + 2;
  },
} as RatioTarget;

export const mcpRoundtrip: RatioBenchmark = {
  kind: "ratio",
  name: "mcp-roundtrip",
  description:
    "tools/call read_file (4 KiB) to agent-bridle-mcp over stdio with the SDK client vs registry.dispatch of the same call in-process",
  grant: "fs_read only[fixture root], fs_write only[], exec and net all, max_calls unlimited",
  mode: "subject: a spawned agent-bridle-mcp (built dist) over stdio; baseline: in-process facade registry; no sandbox, no spawn per call",
  target,
  samples: 30,
  setup: async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bench-mcp-")));
    file = join(root, "data.txt");
    writeFileSync(file, "x".repeat(FILE_BYTES - 1).concat("\n"));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [serverBin()],
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: root,
        AGENT_BRIDLE_CAVEATS: JSON.stringify(grantJson(root)),
      },
      stderr: "ignore",
    });
    client = new Client({ name: "bench", version: "0.0.0" });
    await client.connect(transport);
    direct = registry({ shell: "none" });
    grant = direct.mintGrant(parseCaveats(grantJson(root)));
    await callOverStdio();
    // The direct dispatch's median over a short run, for the 1.2× part of the target.
    const times: number[] = [];
    for (let index = 0; index < 200; index++) {
      const started = performance.now();
      await callDirect();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    baselineEstimateMs = times[Math.floor(times.length / 2)] ?? 1;
  },
  teardown: async () => {
    await client?.close();
    await direct?.close();
    rmSync(root, { recursive: true, force: true });
  },
  subject: callOverStdio,
  baseline: callDirect,
};
