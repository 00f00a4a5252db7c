import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JSONRPCMessage, Progress } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { PROGRESS_STREAM_META_KEY } from "../src/progress.js";
import { openGrantJson, serverEnv, useTempDirs } from "./helpers.js";
import { startSession, useBuiltServer } from "./mcp-session.js";

const tempDir = useTempDirs();
useBuiltServer();

/** The SDK's client on a spawned server (host engine, open grant), recording what it reads. */
const start = () =>
  startSession(
    serverEnv(tempDir(), { AGENT_BRIDLE_CAVEATS: openGrantJson(), AGENT_BRIDLE_ENGINE: "host" }),
  );

const isProgress = (message: JSONRPCMessage) =>
  "method" in message && message.method === "notifications/progress";
const progressParams = (message: JSONRPCMessage) =>
  (message as unknown as { params: Progress & { progressToken: string | number } }).params;

/** The SDK hands `onprogress` the notification's params; `_meta` names the stream. */
const streamOf = (update: Progress) =>
  (update as { _meta?: Record<string, unknown> })._meta?.[PROGRESS_STREAM_META_KEY];

type Envelope = { stdout: string; stderr: string; exit_code: number };

describe("live output as MCP progress notifications", () => {
  it("streams a call's output while it runs when the client passes onprogress; the text equals the result", async () => {
    const { client, received } = await start();
    const dir = tempDir();
    const go = join(dir, "go");
    // The command prints, then waits for a file the test creates only once the first
    // progress notification has arrived: the output is live, not sent with the result.
    const cmd = [
      "printf 'first line\\n'",
      `while [ ! -e ${go} ]; do sleep 0.02; done`,
      "for i in 1 2 3 4 5; do printf 'line %s ünïcödé\\n' $i; sleep 0.02; done",
      "printf 'to stderr\\n' >&2",
    ].join("; ");
    const progress: Progress[] = [];
    let resolved = false;
    const result = await client.callTool(
      { name: "shell", arguments: { cmd, cwd: dir } },
      undefined,
      {
        onprogress: (update) => {
          expect(resolved).toBe(false);
          progress.push(update);
          if (!existsSync(go)) writeFileSync(go, "");
        },
      },
    );
    resolved = true;
    expect(result.isError).toBe(false);
    const envelope = result.structuredContent as Envelope;
    expect(envelope.exit_code).toBe(0);
    expect(existsSync(go)).toBe(true);

    // What the server sent, read off the wire: the SDK's client (1.32) drops a progress
    // notification that it reads together with the response (typescript-sdk#2580), so the
    // complete text is checked on the wire and `onprogress` must see an in-order prefix.
    const wire = received.filter(isProgress).map((message) => progressParams(message));
    expect(wire.every((params) => params.progressToken === wire[0]?.progressToken)).toBe(true);
    const textOf = (updates: readonly Progress[], stream: string) =>
      updates
        .filter((update) => streamOf(update) === stream)
        .map((update) => update.message ?? "")
        .join("");
    expect(textOf(wire, "stdout")).toBe(envelope.stdout);
    expect(envelope.stdout).toContain("line 5 ünïcödé\n");
    expect(textOf(wire, "stderr")).toBe(envelope.stderr);
    expect(wire.length).toBeGreaterThanOrEqual(3);
    const counts = wire.map((params) => params.progress);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(new Set(counts).size).toBe(counts.length);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]?.message).toBe("first line\n");
    expect(progress.map((update) => update.message)).toEqual(
      wire.slice(0, progress.length).map((params) => params.message),
    );

    // On the wire every progress notification came before the response.
    const response = received.findIndex((message) => "result" in message);
    expect(received.findLastIndex(isProgress)).toBeLessThan(response);
  });

  it("sends no progress notification for a call without a progress token", async () => {
    const { client, received } = await start();
    const dir = tempDir();
    const result = await client.callTool({
      name: "shell",
      arguments: { cmd: "for i in 1 2 3; do printf 'line %s\\n' $i; sleep 0.02; done", cwd: dir },
    });
    expect(result.isError).toBe(false);
    expect((result.structuredContent as Envelope).stdout).toBe("line 1\nline 2\nline 3\n");
    expect(received.filter(isProgress)).toEqual([]);
    expect(received.some((message) => "result" in message)).toBe(true);
  });
});
