import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  brushWorkers,
  chainBetween,
  descendantsOf,
  isSpawnServer,
  type LiveProcess,
  stillRunning,
  waitFor,
} from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import {
  bridleBin,
  openGrantJson,
  resultText,
  serverBin,
  serverEnv,
  useTempDirs,
  writeConfig,
} from "./helpers.js";
import { startSession, useBuiltServer } from "./mcp-session.js";

const tempDir = useTempDirs();
const onBrushPlatform = process.platform === "linux" || process.platform === "darwin";
useBuiltServer();

/** The server spawned with `args` (default this package's `agent-bridle-mcp`). */
const start = (env: Record<string, string>, args?: readonly string[]) =>
  startSession(env, args === undefined ? {} : { args });

describe("agent-bridle-mcp over stdio, driven by the SDK's client", () => {
  it("initializes, lists the tools with schemas and annotations, serves a granted read and refuses one outside", async () => {
    const home = tempDir();
    const data = tempDir();
    const outside = tempDir();
    writeFileSync(join(data, "hello.txt"), "hello from the grant\n");
    writeFileSync(join(outside, "secret.txt"), "canary-7f3a\n");
    const { client, stderr } = await start(
      serverEnv(home, {
        AGENT_BRIDLE_CAVEATS: openGrantJson({
          fs_read: { only: [data] },
          fs_write: { only: [] },
          max_calls: { at_most: 2 },
        }),
      }),
    );
    expect(client.getServerVersion()?.name).toBe("agent-bridle-mcp");
    expect(client.getServerCapabilities()?.tools).toBeDefined();

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "directory_tree",
      "edit_file",
      "file_info",
      "list_allowed_directories",
      "list_directory",
      "read_file",
      "search_files",
      "shell",
      "write_file",
    ]);
    // The default shell: the bash engine's schema on Linux and macOS (case 101), the
    // safe-subset engine's elsewhere.
    const shell = tools.find((tool) => tool.name === "shell");
    expect(shell?.inputSchema.properties).toHaveProperty("cmd");
    if (onBrushPlatform) expect(shell?.inputSchema.properties).not.toHaveProperty("program");
    else expect(shell?.inputSchema.properties).toHaveProperty("program");
    const read = tools.find((tool) => tool.name === "read_file");
    expect(read?.description?.length).toBeGreaterThan(20);
    expect(read?.inputSchema.type).toBe("object");
    expect(read?.inputSchema.properties).toHaveProperty("path");
    expect(read?.annotations?.readOnlyHint).toBe(true);
    const write = tools.find((tool) => tool.name === "write_file");
    expect(write?.annotations?.readOnlyHint).toBe(false);

    const allowed = await client.callTool({
      name: "read_file",
      arguments: { path: join(data, "hello.txt") },
    });
    expect(allowed.isError).toBe(false);
    const envelope = allowed.structuredContent as { result: { content: string } };
    expect(envelope.result.content).toBe("hello from the grant\n");
    expect(JSON.parse(resultText(allowed))).toEqual(envelope);

    // Outside the grant: an in-band denial, not charged.
    const denied = await client.callTool({
      name: "read_file",
      arguments: { path: join(outside, "secret.txt") },
    });
    expect(denied.isError).toBe(true);
    expect(resultText(denied)).toMatch(/^denied: read of .*not within the granted fs_read scope/);
    expect(resultText(denied)).not.toContain("canary");
    const deniedEnvelope = denied.structuredContent as { denials: { code: string }[] };
    expect(deniedEnvelope.denials[0]?.code).toBe("FS_OUTSIDE_ALLOWED");

    // The budget is the session's: one more call runs, the next is refused.
    const second = await client.callTool({
      name: "read_file",
      arguments: { path: join(data, "hello.txt") },
    });
    expect(second.isError).toBe(false);
    const spent = await client.callTool({
      name: "read_file",
      arguments: { path: join(data, "hello.txt") },
    });
    expect(spent.isError).toBe(true);
    expect(resultText(spent)).toBe("denied: call budget (max_calls) exhausted");
    expect(spent.structuredContent).toEqual({
      error: { code: "BUDGET_EXHAUSTED", message: "denied: call budget (max_calls) exhausted" },
    });

    expect(stderr()).toContain("grant from AGENT_BRIDLE_CAVEATS");
  });

  it("answers an unknown tool and invalid arguments with tool errors, not protocol errors", async () => {
    const home = tempDir();
    const { client } = await start(serverEnv(home, { AGENT_BRIDLE_CAVEATS: openGrantJson({}) }));
    const unknown = await client.callTool({ name: "no_such_tool", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(resultText(unknown)).toBe("no such tool: no_such_tool");
    const invalid = await client.callTool({ name: "read_file", arguments: { path: 7 } });
    expect(invalid.isError).toBe(true);
    expect(resultText(invalid)).toContain("path");
  });

  it("is deny-all when nothing is configured, and says so on stderr", async () => {
    const home = tempDir();
    const data = tempDir();
    writeFileSync(join(data, "x.txt"), "x");
    const { client, stderr } = await start(serverEnv(home));
    const result = await client.callTool({
      name: "read_file",
      arguments: { path: join(data, "x.txt") },
    });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^denied: no grant is configured.*AGENT_BRIDLE_CAVEATS/);
    expect(stderr()).toContain("DENY-ALL");
    expect(stderr()).toContain("failing closed");
  });

  it("reads the grant and the engine from ~/.agent-bridle/config.toml, and the env grant beats it", async () => {
    const home = tempDir();
    const data = tempDir();
    writeFileSync(join(data, "x.txt"), "from config\n");
    writeConfig(
      home,
      [
        "[caveats]",
        `fs_read = { only = ["${data}"] }`,
        "fs_write = { only = [] }",
        'exec = { only = ["echo"] }',
        "net = { only = [] }",
        "max_calls = { at_most = 5 }",
        'valid_for_generation = "all"',
        "",
        "[fs]",
        `baseDir = "${data}"`,
        "",
        "[engine]",
        'shell = "host"',
      ].join("\n"),
    );
    const fromFile = await start(serverEnv(home));
    const names = (await fromFile.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("shell");
    const relative = await fromFile.client.callTool({
      name: "read_file",
      arguments: { path: "x.txt" },
    });
    expect(relative.isError).toBe(false);
    expect(fromFile.stderr()).toContain("config.toml [caveats]");

    const fromEnv = await start(
      serverEnv(home, { AGENT_BRIDLE_CAVEATS: openGrantJson({ fs_read: { only: [] } }) }),
    );
    const refused = await fromEnv.client.callTool({
      name: "read_file",
      arguments: { path: "x.txt" },
    });
    expect(refused.isError).toBe(true);
    expect(fromEnv.stderr()).toContain("grant from AGENT_BRIDLE_CAVEATS");
  });

  it("refuses to start with an invalid grant, naming its source", async () => {
    const home = tempDir();
    const child = spawn(process.execPath, [serverBin], {
      env: serverEnv(home, { AGENT_BRIDLE_CAVEATS: "{not json" }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toContain("AGENT_BRIDLE_CAVEATS");
  });
});

// The bash engine looks programs up through its fs_read gate: a restricted fs_read must
// cover the directories programs live in (here core's trusted PATH).
const PROGRAM_DIRECTORIES = [
  "/usr/local/sbin",
  "/usr/local/bin",
  "/usr/sbin",
  "/usr/bin",
  "/sbin",
  "/bin",
];

function shellGrant(dir: string, extra: Record<string, unknown> = {}): string {
  return openGrantJson({
    fs_read: { only: [dir, ...PROGRAM_DIRECTORIES] },
    fs_write: { only: [dir] },
    exec: { only: ["echo", "sleep"] },
    net: { only: [] },
    ...extra,
  });
}

/** Processes whose command line is `sleep <marker>` (host pids, whatever namespace they run in). */
function sleepersWith(marker: string): LiveProcess[] {
  return descendantsOf(process.pid).filter(
    (live) => live.argv.includes(marker) && live.argv.some((arg) => arg.endsWith("sleep")),
  );
}

// The default engine (no AGENT_BRIDLE_ENGINE, no [engine]) is the bash engine here; the
// host engine is the opt-in one. Both serve the same calls and kill a cancelled call.
const SHELL_ENGINES = [
  { title: "the default shell (brush, the bash engine)", engine: "brush", env: {} },
  {
    title: "the host shell (opted in)",
    engine: "sandbox-host",
    env: { AGENT_BRIDLE_ENGINE: "host" },
  },
] as const;

describe.skipIf(!onBrushPlatform).each(SHELL_ENGINES)("$title over MCP", ({ engine, env }) => {
  it("serves an allowed shell call with the kernel report", async () => {
    const home = tempDir();
    const dir = tempDir();
    const { client } = await start(
      serverEnv(home, { AGENT_BRIDLE_CAVEATS: shellGrant(dir), ...env }),
    );
    const { tools } = await client.listTools();
    const shell = tools.find((tool) => tool.name === "shell");
    expect(shell?.inputSchema.properties).toHaveProperty("cmd");
    expect(shell?.annotations?.destructiveHint).toBe(true);
    const result = await client.callTool({
      name: "shell",
      arguments: { cmd: 'for w in hi from bash; do echo -n "$w "; done; echo', cwd: dir },
    });
    const envelope = result.structuredContent as Record<string, unknown>;
    expect(envelope.disclosure).toMatchObject({ engine });
    if (envelope.sandbox_kind === "none") {
      // No kernel backend on this host: the engine refuses restricted grants in-band.
      expect(result.isError).toBe(true);
      return;
    }
    expect(result.isError).toBe(false);
    expect(envelope.stdout).toBe("hi from bash \n");
    expect(envelope.exit_code).toBe(0);
    expect(envelope.enforcement).toMatchObject({
      fs_read: "kernel",
      net: "kernel",
      exec: "interceptor",
    });
    expect(resultText(result)).toMatch(/^exit code: 0\n--- stdout ---\nhi from bash \n/);
  });

  it("spends the session's budget: a call beyond max_calls is refused and runs nothing", async () => {
    const home = tempDir();
    const dir = tempDir();
    const { client } = await start(
      serverEnv(home, {
        AGENT_BRIDLE_CAVEATS: shellGrant(dir, {
          exec: { only: ["echo", "touch"] },
          max_calls: { at_most: 1 },
        }),
        ...env,
      }),
    );
    const first = await client.callTool({
      name: "shell",
      arguments: { cmd: "echo one", cwd: dir },
    });
    expect(first.isError).toBe(false);
    const spent = await client.callTool({
      name: "shell",
      arguments: { cmd: "touch marker", cwd: dir },
    });
    expect(spent.isError).toBe(true);
    expect(resultText(spent)).toBe("denied: call budget (max_calls) exhausted");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("aborts a cancelled long call: its sleep, the worker or shell running it and their launchers are gone", async () => {
    const home = tempDir();
    const dir = tempDir();
    const server = await start(serverEnv(home, { AGENT_BRIDLE_CAVEATS: shellGrant(dir), ...env }));
    const marker = `${40 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    const controller = new AbortController();
    const call = server.client.callTool(
      { name: "shell", arguments: { cmd: `sleep ${marker}; echo never`, cwd: dir } },
      undefined,
      { signal: controller.signal },
    );
    const settled = call.then(
      () => "resolved",
      () => "rejected",
    );
    await waitFor(() => sleepersWith(marker).length > 0);
    const [sleeper] = sleepersWith(marker);
    // Everything between the server and the sleep: for brush the worker (Node running
    // the worker flag) and the launchers; for host the bash and its launcher.
    // The host's spawn server (ADR 0023) outlives the call by design; the rest of the chain does not.
    const chain = chainBetween(server.pid, sleeper as LiveProcess).filter(
      (live) => !isSpawnServer(live),
    );
    expect(chain.length).toBeGreaterThan(1);
    if (engine === "brush") expect(brushWorkers(chain)).toHaveLength(1);
    controller.abort();
    expect(await settled).toBe("rejected");
    await waitFor(() => chain.every((live) => !stillRunning(live)));
    expect(sleepersWith(marker)).toEqual([]);
    // The session still serves afterwards.
    const after = await server.client.callTool({
      name: "shell",
      arguments: { cmd: "echo ok", cwd: dir },
    });
    expect(after.isError).toBe(false);
  });
});

describe.skipIf(!onBrushPlatform)("the bash engine's refusals over MCP (case 101)", () => {
  it("lists a granted directory and names a program outside the grant", async () => {
    const home = tempDir();
    const dir = tempDir();
    writeFileSync(join(dir, "marker-file-101"), "");
    // A real program the grant does not name: it must not start.
    writeFileSync(join(dir, "definitely-not-granted"), "#!/bin/sh\ntouch pwned\n", {
      mode: 0o755,
    });
    const { client } = await start(
      serverEnv(home, {
        AGENT_BRIDLE_CAVEATS: openGrantJson({ exec: { only: ["ls"] }, fs_write: { only: [dir] } }),
      }),
    );
    const listed = await client.callTool({
      name: "shell",
      arguments: { cmd: `ls '${dir}'`, cwd: dir },
    });
    expect(listed.isError, resultText(listed)).toBe(false);
    expect(resultText(listed)).toContain("marker-file-101");
    expect(resultText(listed)).toContain("engine brush");

    const denied = await client.callTool({
      name: "shell",
      arguments: { cmd: "./definitely-not-granted; rm marker-file-101", cwd: dir },
    });
    // A run with a denial in it is not an error: its output and status reach the model.
    expect(denied.isError).toBe(false);
    expect(resultText(denied)).toContain("definitely-not-granted");
    expect(resultText(denied)).toMatch(/^exit code: 126\n/);
    const envelope = denied.structuredContent as { exit_code: number; stderr: string };
    expect(envelope.exit_code).toBe(126);
    expect(envelope.stderr).toContain("execution denied");
    expect(readdirSync(dir).sort()).toEqual(["definitely-not-granted", "marker-file-101"]);
  });
});

describe("the safe-subset engine's budget over MCP (case 102)", () => {
  it("an out-of-scope cmd is refused in-band and does not consume max_calls at_most(1)", async () => {
    const home = tempDir();
    const dir = tempDir();
    const { client } = await start(
      serverEnv(home, {
        AGENT_BRIDLE_CAVEATS: openGrantJson({
          exec: { only: ["echo"] },
          max_calls: { at_most: 1 },
        }),
        AGENT_BRIDLE_ENGINE: "safe",
      }),
    );
    const refused = await client.callTool({
      name: "shell",
      arguments: { cmd: `touch ${join(dir, "made")}`, cwd: dir },
    });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toContain("touch");
    expect(readdirSync(dir)).toEqual([]);
    const served = await client.callTool({
      name: "shell",
      arguments: { cmd: "echo still in budget", cwd: dir },
    });
    expect(served.isError, resultText(served)).toBe(false);
    expect((served.structuredContent as { stdout: string }).stdout).toBe("still in budget\n");
  });
});

describe("sessions", () => {
  it("caps concurrent calls: with max_concurrent_calls = 1 two calls run one after the other", async () => {
    const home = tempDir();
    const dir = tempDir();
    writeConfig(home, "[limits]\nmax_concurrent_calls = 1\n");
    const { client } = await start(
      serverEnv(home, { AGENT_BRIDLE_CAVEATS: openGrantJson({}), AGENT_BRIDLE_ENGINE: "host" }),
    );
    const started = performance.now();
    const results = await Promise.all([
      client.callTool({ name: "shell", arguments: { cmd: "sleep 0.4", cwd: dir } }),
      client.callTool({ name: "shell", arguments: { cmd: "sleep 0.4", cwd: dir } }),
    ]);
    expect(results.map((result) => result.isError)).toEqual([false, false]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(800);
  });

  it("unbridles only with both keys: the kernel sandbox is off, every envelope says so, the grant still gates", async () => {
    const home = tempDir();
    const dir = tempDir();
    const { client, stderr } = await start(
      serverEnv(home, {
        AGENT_BRIDLE_CAVEATS: openGrantJson({}),
        AGENT_BRIDLE_ENGINE: "host",
        BRIDLE_MODE: "unbridle",
        AGENT_BRIDLE_UNBRIDLE: "i-understand-this-is-dangerous",
      }),
    );
    expect(stderr()).toContain("UNBRIDLED");
    const ran = await client.callTool({ name: "shell", arguments: { cmd: "echo hi", cwd: dir } });
    expect(ran.isError).toBe(false);
    expect(ran.structuredContent).toMatchObject({
      sandbox_kind: "none",
      stdout: "hi\n",
      disclosure: { unbridled: true },
    });

    const restricted = await start(
      serverEnv(home, {
        AGENT_BRIDLE_CAVEATS: openGrantJson({ exec: { only: ["echo"] }, fs_read: { only: [dir] } }),
        AGENT_BRIDLE_ENGINE: "host",
        BRIDLE_MODE: "unbridle",
        AGENT_BRIDLE_UNBRIDLE: "i-understand-this-is-dangerous",
      }),
    );
    // The host engine has no check of its own: with the kernel mechanism dropped it
    // cannot hold a restricted grant, so it refuses in-band, and discloses unbridled.
    writeFileSync(join(dir, "keep.txt"), "still here");
    const refused = await restricted.client.callTool({
      name: "shell",
      arguments: { cmd: "rm -f keep.txt", cwd: dir },
    });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toContain("engine unavailable for this grant");
    expect(refused.structuredContent).toMatchObject({
      disclosure: { unbridled: true },
      denials: [{ code: "ENGINE_UNAVAILABLE" }],
    });
    expect(readFileSync(join(dir, "keep.txt"), "utf8")).toBe("still here");

    const oneKey = await start(
      serverEnv(home, {
        AGENT_BRIDLE_CAVEATS: openGrantJson({}),
        AGENT_BRIDLE_ENGINE: "host",
        BRIDLE_MODE: "unbridle",
        AGENT_BRIDLE_UNBRIDLE: "true",
      }),
    );
    expect(oneKey.stderr()).toContain("REFUSING TO UNBRIDLE");
    const denied = await oneKey.client.callTool({
      name: "shell",
      arguments: { cmd: "echo hi", cwd: dir },
    });
    expect(denied.isError).toBe(true);
    expect(resultText(denied)).toMatch(/^denied: the server refused to unbridle/);
  });
});

describe("the bridle bin", () => {
  it("serves MCP with `bridle mcp`", async () => {
    const home = tempDir();
    const { client, stderr } = await start(serverEnv(home), [bridleBin, "mcp"]);
    expect(client.getServerVersion()?.name).toBe("agent-bridle-mcp");
    expect(stderr()).toContain("bridle mcp: DENY-ALL");
  });

  it("runs `bridle run --json` and exits with the command's exit code", async () => {
    const dir = tempDir();
    const child = spawn(
      process.execPath,
      [bridleBin, "run", "--json", "--", "echo from-bin; exit 4"],
      {
        cwd: dir,
        env: serverEnv(tempDir()),
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    const envelope = JSON.parse(stdout);
    expect(stderr).toContain("demo grant");
    if (envelope.sandbox_kind === "none") {
      expect(code).toBe(1);
      return;
    }
    expect(code).toBe(4);
    expect(envelope.stdout).toBe("from-bin\n");
  });

  it("starts with a #!/usr/bin/env node line", () => {
    expect(readFileSync(bridleBin, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
    expect(readFileSync(serverBin, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });
});

describe("oversized frames (a raw stdio client)", () => {
  it("answers -32600 without crashing or buffering, and serves the next frame", async () => {
    const home = tempDir();
    writeConfig(home, "[limits]\nmax_frame_bytes = 4096\n");
    const child = spawn(process.execPath, [serverBin], {
      env: serverEnv(home),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const lines = collectLines(child);
    // 64 KiB of one frame, in pieces, then a valid request.
    for (let index = 0; index < 16; index++) child.stdin?.write("x".repeat(4096));
    child.stdin?.write("\n");
    child.stdin?.write(`${JSON.stringify(initializeRequest(1))}\n`);
    await waitFor(() => lines.length >= 2, 10_000);
    const oversized = JSON.parse(lines[0] as string);
    expect(oversized).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request: frame exceeds 4096 bytes" },
    });
    const initialized = JSON.parse(lines[1] as string);
    expect(initialized.id).toBe(1);
    expect(initialized.result.serverInfo.name).toBe("agent-bridle-mcp");
    expect(child.exitCode).toBeNull();
    child.stdin?.end();
    await new Promise((resolve) => child.on("exit", resolve));
  });
});

describe.skipIf(!onBrushPlatform)("end of input", () => {
  it.each([
    ["brush (the default)", {}],
    ["host", { AGENT_BRIDLE_ENGINE: "host" }],
  ])("answers the calls already received, then exits 0 (%s)", async (_name, env) => {
    const home = tempDir();
    const dir = tempDir();
    writeFileSync(join(dir, "x.txt"), "piped");
    const child = spawn(process.execPath, [serverBin], {
      env: serverEnv(home, {
        AGENT_BRIDLE_CAVEATS: openGrantJson({ fs_read: { only: [dir] } }),
        ...env,
      }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const lines = collectLines(child);
    const call = (id: number, name: string, args: Record<string, unknown>) =>
      `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })}\n`;
    child.stdin?.end(
      [
        `${JSON.stringify(initializeRequest(1))}\n`,
        `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
        call(2, "shell", { cmd: "sleep 0.3; echo late", cwd: dir }),
        call(3, "read_file", { path: join(dir, "x.txt") }),
      ].join(""),
    );
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const responses = lines.map(
      (line) =>
        JSON.parse(line) as {
          id: number;
          result: { structuredContent: { stdout?: string; result?: { content: string } } };
        },
    );
    expect(responses.map((response) => response.id).sort()).toEqual([1, 2, 3]);
    const shell = responses.find((response) => response.id === 2);
    expect(shell?.result.structuredContent.stdout).toBe("late\n");
    const read = responses.find((response) => response.id === 3);
    expect(read?.result.structuredContent.result?.content).toBe("piped");
  });
});

function initializeRequest(id: number) {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    },
  };
}

function collectLines(child: ChildProcess): string[] {
  const lines: string[] = [];
  let pending = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    let newline = pending.indexOf("\n");
    while (newline !== -1) {
      lines.push(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
    }
  });
  return lines;
}
