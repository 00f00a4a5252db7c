import { describe, expect, it } from "vitest";
import { FrameReader, type WorkerEvent } from "../../src/worker/frame-reader.js";
import { FrameWriter } from "../../src/worker/frame-writer.js";
import { encodeFrame, FrameKind, jsonPayload } from "../../src/worker/output-frames.js";

const terminal = (extra: Record<string, unknown> = {}) =>
  jsonPayload({
    exit_code: 0,
    denials: [],
    error: null,
    dropped: { stdout_bytes: 0, stderr_bytes: 0, events: 0 },
    ...extra,
  });

function read(frames: Buffer[]) {
  const events: WorkerEvent[] = [];
  const reader = new FrameReader((event) => events.push(event), 1 << 20);
  for (const frame of frames) reader.push(frame);
  return { events, terminal: reader.end() };
}

const started = encodeFrame(FrameKind.started, 0, new Uint8Array());

describe("the worker's result stream, validated strictly (reference §5.5)", () => {
  it("round-trips what the writer sends: output, caps with exact drop counts, denials, terminal", () => {
    const frames: Buffer[] = [];
    const writer = new FrameWriter((frame) => frames.push(frame), 5);
    writer.started();
    writer.output("stdout", Buffer.from("abc"));
    writer.output("stdout", Buffer.from("defgh"));
    writer.denied({ kind: "exec", target: "rm", code: "EXEC_NOT_GRANTED", reason: "no" });
    writer.terminal(7);
    const { events, terminal: end } = read([Buffer.concat(frames)]);
    const out = events.flatMap((event) => (event.kind === "stdout" ? [event.chunk] : []));
    expect(Buffer.concat(out).toString()).toBe("abcde");
    expect(end.exit_code).toBe(7);
    expect(end.dropped.stdout_bytes).toBe(3);
    expect(end.denials).toHaveLength(1);
  });

  it.each([
    ["a sequence gap", [started, encodeFrame(FrameKind.terminal, 2, terminal())]],
    ["a frame before started", [encodeFrame(FrameKind.stdout, 0, Buffer.from("x"))]],
    ["started twice", [started, encodeFrame(FrameKind.started, 1, new Uint8Array())]],
    ["an unknown kind", [started, encodeFrame(99 as never, 1, new Uint8Array())]],
    ["a pre-start terminal without an error", [encodeFrame(FrameKind.terminal, 0, terminal())]],
    [
      "terminal denials that were not streamed",
      [
        started,
        encodeFrame(
          FrameKind.terminal,
          1,
          terminal({
            denials: [{ kind: "exec", target: "x", code: "EXEC_NOT_GRANTED", reason: "r" }],
          }),
        ),
      ],
    ],
    [
      "an unknown terminal field",
      [started, encodeFrame(FrameKind.terminal, 1, terminal({ more: 1 }))],
    ],
    [
      "bytes after the terminal",
      [started, encodeFrame(FrameKind.terminal, 1, terminal()), Buffer.from("x")],
    ],
    ["a stream that ends before its terminal", [started]],
    ["a bad magic", [Buffer.concat([Buffer.from("XXXX"), started.subarray(4)])]],
  ])("refuses %s", (_name, frames) => {
    expect(() => read(frames as Buffer[])).toThrow(/invalid brush worker event stream/);
  });

  it("checks a declared length before buffering it, and the whole stream's bound", () => {
    const header = Buffer.from(started);
    header.writeUInt32LE((1 << 20) + 1, 14);
    expect(() => read([header])).toThrow(/over 1 MiB/);
    const reader = new FrameReader(() => undefined, 10);
    expect(() => reader.push(Buffer.alloc(11))).toThrow(/total cap/);
  });
});
