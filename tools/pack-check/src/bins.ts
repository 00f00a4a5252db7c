import { delimiter, dirname, join } from "node:path";
import { run, tail } from "./run.js";

/** How a bin is proven to start: its arguments, its input and what its output shows. */
export interface BinProbe {
  readonly args: readonly string[];
  readonly input?: string;
  readonly expect: RegExp;
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "pack-check", version: "0.0.0" },
  },
})}\n`;

/**
 * Known bins: `bridle --help` prints its usage; `agent-bridle-mcp` answers an MCP
 * `initialize` on stdin (deny-all: no grant is configured) and exits when stdin ends. Any
 * other bin must exit 0 on `--help` with some output.
 */
export function probeFor(bin: string): BinProbe {
  if (bin === "bridle") return { args: ["--help"], expect: /usage:/ };
  if (bin === "agent-bridle-mcp") return { args: [], input: INITIALIZE, expect: /"serverInfo"/ };
  return { args: ["--help"], expect: /\S/ };
}

export interface BinRun {
  readonly bin: string;
  readonly firstLine: string;
}

/**
 * Runs an installed bin through `node_modules/.bin`, as a user of the package would, with
 * a fresh empty home (no configuration) and no inherited environment but `PATH`.
 */
export async function runBin(projectDir: string, home: string, bin: string): Promise<BinRun> {
  const probe = probeFor(bin);
  const result = await run(join(projectDir, "node_modules/.bin", bin), probe.args, {
    cwd: projectDir,
    // The bins start with `#!/usr/bin/env node`: this Node first on PATH.
    env: {
      PATH: [dirname(process.execPath), process.env.PATH ?? "/usr/bin:/bin"].join(delimiter),
      HOME: home,
    },
    input: probe.input,
  });
  if (result.code !== 0 || !probe.expect.test(result.stdout)) {
    throw new Error(
      `pack check: the bin ${bin} did not start as expected (exit ${result.code ?? result.signal}, wanted ${probe.expect} on stdout)\n${tail(result.stdout + result.stderr)}`,
    );
  }
  return { bin, firstLine: result.stdout.trim().split("\n")[0] ?? "" };
}
