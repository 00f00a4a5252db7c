import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ConfigurationError } from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { createBrushShellTool } from "../../src/tool/brush-shell-tool.js";
import { FrameReader, type WorkerEvent } from "../../src/worker/frame-reader.js";
import { encodeFrame, FrameKind, jsonPayload } from "../../src/worker/output-frames.js";
import {
  freshNonce,
  handRun,
  launchBody,
  launcherPath,
  launchFrame,
  requestFrame,
  workerEnv,
} from "./worker-harness.js";

const tempDir = useTempDirs("brush-ref-frames-");

const terminal = (extra: Record<string, unknown> = {}) =>
  jsonPayload({
    exit_code: 0,
    denials: [],
    error: null,
    dropped: { stdout_bytes: 0, stderr_bytes: 0, events: 0 },
    ...extra,
  });
const denial = { kind: "exec", target: "rm", code: "EXEC_NOT_GRANTED", reason: "not granted" };
const started = encodeFrame(FrameKind.started, 0, new Uint8Array());
const out = (sequence: number, text: string) =>
  encodeFrame(FrameKind.stdout, sequence, Buffer.from(text));

function read(frames: readonly Buffer[]) {
  const events: WorkerEvent[] = [];
  const reader = new FrameReader((event) => events.push(event), 1 << 20);
  for (const frame of frames) reader.push(frame);
  return { events, terminal: reader.end() };
}

describe("the worker's result stream is validated strictly (reference case 90)", () => {
  it.each([
    [
      "a gap in the sequence",
      [started, out(2, "x"), encodeFrame(FrameKind.terminal, 3, terminal())],
    ],
    [
      "a duplicate sequence number",
      [started, out(1, "x"), out(1, "y"), encodeFrame(FrameKind.terminal, 2, terminal())],
    ],
    ["output before started", [out(0, "x")]],
    ["a denial before started", [encodeFrame(FrameKind.denied, 0, jsonPayload(denial))]],
    [
      "a truncation report before started",
      [
        encodeFrame(
          FrameKind.truncated,
          0,
          jsonPayload({ stdout_bytes: 1, stderr_bytes: 0, events: 0 }),
        ),
      ],
    ],
    ["an unknown kind", [started, encodeFrame(42 as FrameKind, 1, new Uint8Array())]],
    [
      "bytes after the terminal",
      [started, encodeFrame(FrameKind.terminal, 1, terminal()), out(2, "late")],
    ],
    ["a missing terminal", [started, out(1, "x")]],
    [
      "terminal denials that differ from the streamed ones",
      [
        started,
        encodeFrame(FrameKind.denied, 1, jsonPayload(denial)),
        encodeFrame(FrameKind.terminal, 2, terminal({ denials: [] })),
      ],
    ],
    ["a pre-start terminal without an error", [encodeFrame(FrameKind.terminal, 0, terminal())]],
  ])("90: refuses %s", (_name, frames) => {
    expect(() => read(frames as Buffer[])).toThrow(/^invalid brush worker event stream: /);
  });

  it("90: accepts a pre-start terminal that carries an error, and streamed denials repeated by the terminal", () => {
    expect(
      read([encodeFrame(FrameKind.terminal, 0, terminal({ exit_code: 126, error: "refused" }))])
        .terminal.error,
    ).toBe("refused");
    const { terminal: end } = read([
      started,
      encodeFrame(FrameKind.denied, 1, jsonPayload(denial)),
      encodeFrame(FrameKind.terminal, 2, terminal({ denials: [denial], exit_code: 126 })),
    ]);
    expect(end.denials).toEqual([denial]);
  });

  it("90: an oversize frame is refused from its header, before its payload is buffered", () => {
    const header = Buffer.from(out(1, ""));
    header.writeUInt32LE((1 << 20) + 1, 14);
    const events: WorkerEvent[] = [];
    const reader = new FrameReader((event) => events.push(event), 64 << 20);
    reader.push(started);
    // Only the 18-byte header arrives: the declared length alone is the refusal.
    expect(() => reader.push(header)).toThrow(/over 1 MiB/);
    expect(events).toEqual([]);
  });

  it("90: max_output 0 or over 64 MiB is refused — by the engine's configuration, and by the worker's launch check", async () => {
    for (const maxOutputBytes of [0, (64 << 20) + 1, 1.5]) {
      expect(() =>
        createBrushShellTool({
          home: "/nonexistent-home",
          tmpdir: "/tmp",
          backend: NONE_BACKEND,
          limits: { maxOutputBytes },
        }),
      ).toThrow(ConfigurationError);
    }
    expect(() =>
      createBrushShellTool({
        home: "/nonexistent-home",
        tmpdir: "/tmp",
        backend: NONE_BACKEND,
        warm: false,
        limits: { maxOutputBytes: 64 << 20 },
      }),
    ).not.toThrow();
    const dir = tempDir();
    for (const max of [0, (64 << 20) + 1]) {
      const nonce = freshNonce();
      const run = await handRun({
        send: Buffer.concat([
          launchFrame(launchBody(nonce, { max_output_bytes: max })),
          requestFrame(nonce, `echo > ${join(dir, "ran")}`, dir),
        ]),
        env: workerEnv(nonce, await launcherPath()),
      });
      expect(run.status).toBe(126);
      expect(run.stderr).toContain("malformed launch frame (max_output_bytes)");
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
