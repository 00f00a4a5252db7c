import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROGRESS_HEARTBEAT_META_KEY } from "../src/progress.js";
import { openGrantJson, resultText, serverEnv, useTempDirs, writeConfig } from "./helpers.js";
import { startSession, useBuiltServer } from "./mcp-session.js";

// Issue 17 points 3 and 4: what of a run reaches the model, and when it is an error.
const tempDir = useTempDirs();
const onBrushPlatform = process.platform === "linux" || process.platform === "darwin";
useBuiltServer();

const PROGRAM_DIRECTORIES = ["/usr/local/bin", "/usr/bin", "/bin"];

describe.skipIf(!onBrushPlatform)("a partly refused run over MCP (bash engine)", () => {
  it("reaches the model with its stdout, stderr and exit code, the denial appended, and is not an error", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "not-granted"), "#!/bin/sh\ntouch pwned\n", { mode: 0o755 });
    const { client } = await startSession(
      serverEnv(tempDir(), {
        AGENT_BRIDLE_CAVEATS: openGrantJson({
          fs_read: { only: [dir, ...PROGRAM_DIRECTORIES] },
          fs_write: { only: [dir] },
          exec: { only: ["echo", "touch"] },
          net: { only: [] },
        }),
      }),
    );
    const result = await client.callTool({
      name: "shell",
      arguments: {
        cmd: "echo before; ./not-granted; echo to-stderr >&2; touch control; echo after",
        cwd: dir,
      },
    });
    const body = resultText(result);
    expect(result.isError, body).toBe(false);
    expect(body).toMatch(/^exit code: 0\n/);
    expect(body).toContain("--- stdout ---\nbefore\nafter\n");
    expect(body).toContain("--- stderr ---\n");
    expect(body).toContain("to-stderr");
    expect(body).toMatch(/--- denied during the run ---\n- \[EXEC_NOT_GRANTED\] .*not-granted/);
    expect(body).toContain("engine brush");
    const envelope = result.structuredContent as { stdout: string; denials: unknown[] };
    expect(envelope.stdout).toBe("before\nafter\n");
    expect(envelope.denials).toHaveLength(1);
    // The refused program did not run; the granted one did (positive control).
    expect(existsSync(join(dir, "pwned"))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(["control", "not-granted"]);
  });

  it("a refusal before anything ran is an error with the reasons as text", async () => {
    const dir = tempDir();
    const { client } = await startSession(
      serverEnv(tempDir(), {
        AGENT_BRIDLE_CAVEATS: openGrantJson({ fs_read: { only: [dir] }, fs_write: { only: [] } }),
      }),
    );
    const result = await client.callTool({
      name: "read_file",
      arguments: { path: "/etc/hostname" },
    });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^denied: /);
  });
});

describe("timeouts and output size over MCP (host engine, open grant)", () => {
  it("a timed-out call is an error, and its output still reaches the model", async () => {
    const dir = tempDir();
    const { client } = await startSession(
      serverEnv(tempDir(), {
        AGENT_BRIDLE_CAVEATS: openGrantJson({}),
        AGENT_BRIDLE_ENGINE: "host",
      }),
    );
    const result = await client.callTool({
      name: "shell",
      arguments: { cmd: "echo started; sleep 30", cwd: dir, timeout_secs: 1 },
    });
    const body = resultText(result);
    expect(result.isError, body).toBe(true);
    expect(body).toContain("timed out");
    expect(body).toContain("--- stdout ---\nstarted\n");
    expect(result.structuredContent).toMatchObject({ timed_out: true });
    // Control: the same call within its timeout is not an error.
    const quick = await client.callTool({
      name: "shell",
      arguments: { cmd: "echo started", cwd: dir, timeout_secs: 5 },
    });
    expect(quick.isError).toBe(false);
  });

  it("caps what the model receives far below 1 MiB, keeping the head and the tail with a marker", async () => {
    const dir = tempDir();
    const { client, received } = await startSession(
      serverEnv(tempDir(), {
        AGENT_BRIDLE_CAVEATS: openGrantJson({}),
        AGENT_BRIDLE_ENGINE: "host",
      }),
    );
    const result = await client.callTool({
      name: "shell",
      arguments: {
        cmd: "echo HEAD-START; head -c 900000 /dev/zero | tr '\\0' a; echo; echo TAIL-END",
        cwd: dir,
      },
    });
    const body = resultText(result);
    expect(result.isError).toBe(false);
    expect(body).toContain("HEAD-START");
    expect(body).toContain("TAIL-END");
    expect(body).toMatch(/\[\.\.\. \d+ bytes of stdout cut here by the model output cap/);
    const frame = received.find((message) => "result" in message);
    expect(JSON.stringify(frame).length).toBeLessThan(64 * 1024);
    expect(result.structuredContent).toMatchObject({ stdout_truncated: true });
  });

  it("the cap is configurable in [limits]", async () => {
    const dir = tempDir();
    const home = tempDir();
    writeConfig(home, "[limits]\nmax_model_output_bytes = 100\n");
    const { client } = await startSession(
      serverEnv(home, { AGENT_BRIDLE_CAVEATS: openGrantJson({}), AGENT_BRIDLE_ENGINE: "host" }),
    );
    const result = await client.callTool({
      name: "shell",
      arguments: { cmd: "head -c 1000 /dev/zero | tr '\\0' b", cwd: dir },
    });
    const envelope = result.structuredContent as {
      model_output_cut: { stdout_bytes: number };
    };
    expect(envelope.model_output_cut.stdout_bytes).toBe(900);
  });

  it("advertises a default timeout_secs below the usual 60 s client timeout", async () => {
    const { client } = await startSession(
      serverEnv(tempDir(), {
        AGENT_BRIDLE_CAVEATS: openGrantJson({}),
        AGENT_BRIDLE_ENGINE: "host",
      }),
    );
    const { tools } = await client.listTools();
    const shell = tools.find((tool) => tool.name === "shell");
    const properties = (shell?.inputSchema.properties ?? {}) as Record<
      string,
      { description?: string }
    >;
    const timeout = properties.timeout_secs;
    expect(timeout?.description).toContain("default 45");
  });

  it("sends heartbeats while a call with a progress token is silent", async () => {
    const dir = tempDir();
    const home = tempDir();
    writeConfig(home, "[limits]\nheartbeat_secs = 1\n");
    const { client, received } = await startSession(
      serverEnv(home, { AGENT_BRIDLE_CAVEATS: openGrantJson({}), AGENT_BRIDLE_ENGINE: "host" }),
    );
    const result = await client.callTool(
      { name: "shell", arguments: { cmd: "sleep 2.6; echo done", cwd: dir } },
      undefined,
      { onprogress: () => {}, resetTimeoutOnProgress: true },
    );
    expect(result.isError).toBe(false);
    const beats = received
      .filter((message) => "method" in message && message.method === "notifications/progress")
      .map((message) => (message as { params: Record<string, unknown> }).params)
      .filter((params) => (params._meta as Record<string, unknown>)[PROGRESS_HEARTBEAT_META_KEY]);
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(String(beats[0]?.message)).toMatch(/^still running after \d+ s$/);
    // Control: without a progress token, no notification at all.
    const before = received.length;
    const quiet = await client.callTool({
      name: "shell",
      arguments: { cmd: "sleep 1.2", cwd: dir },
    });
    expect(quiet.isError).toBe(false);
    expect(received.slice(before).filter((message) => "method" in message)).toEqual([]);
  });
});
