import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../src/errors/configuration-error.js";
import { createOutputSession } from "../../src/observer/output-session.js";
import { bytes, finished, flush, output, recordingObserver } from "./recording-observer.js";

describe("createOutputSession: budget and completion", () => {
  it("reference case 72: cap 3 cuts each stream, finish follows, late output is ignored", async () => {
    const { observer, events } = recordingObserver();
    const session = createOutputSession(observer, { maxBytesPerStream: 3 });

    session.emit("stdout", bytes("abcd"));
    session.emit("stderr", bytes("wxyz"));
    session.finish();
    session.emit("stdout", bytes("late"));
    await session.idle();

    const expected = [
      output(session.id, "stdout", "abc"),
      output(session.id, "stderr", "wxy"),
      finished(session.id),
    ];
    expect(events).toEqual(expected);
    await flush();
    await flush();
    expect(events).toEqual(expected);
    expect(session.state).toBe("finished");
  });

  it("spends each stream's budget across chunks and then drops further chunks", async () => {
    const { observer, events } = recordingObserver();
    const session = createOutputSession(observer, { maxBytesPerStream: 5 });

    session.emit("stdout", bytes("abc"));
    session.emit("stdout", bytes("def"));
    session.emit("stdout", bytes("gh"));
    session.emit("stderr", bytes("12345"));
    session.emit("stderr", bytes("6"));
    await session.idle();

    expect(events).toEqual([
      output(session.id, "stdout", "abc"),
      output(session.id, "stdout", "de"),
      output(session.id, "stderr", "12345"),
    ]);
  });

  it("ignores empty chunks and, with a zero budget, delivers only the finish", async () => {
    const { observer, events } = recordingObserver();
    const session = createOutputSession(observer, { maxBytesPerStream: 0 });

    session.emit("stdout", new Uint8Array(0));
    session.emit("stdout", bytes("x"));
    session.emit("stderr", bytes("y"));
    session.finish();
    await session.idle();

    expect(events).toEqual([finished(session.id)]);
  });

  it("never delivers an empty chunk", async () => {
    const { observer, events } = recordingObserver();
    const session = createOutputSession(observer, { maxBytesPerStream: 8 });

    session.emit("stdout", new Uint8Array(0));
    await session.idle();
    await flush();

    expect(events).toEqual([]);
  });

  it("calls onFinish exactly once, after every prior onOutput, even when callbacks are slow", async () => {
    const log: string[] = [];
    let active = 0;
    let maxActive = 0;
    const delays = [12, 8, 4, 0];
    const session = createOutputSession(
      {
        async onOutput(_id, _stream, chunk) {
          active += 1;
          maxActive = Math.max(maxActive, active);
          const delay = delays[chunk[0] ?? 0] ?? 0;
          await new Promise((resolve) => setTimeout(resolve, delay));
          log.push(`out${chunk[0]}`);
          active -= 1;
        },
        onFinish() {
          log.push(`finish(active=${active})`);
        },
      },
      { maxBytesPerStream: 64 },
    );

    for (const index of [0, 1, 2, 3]) {
      session.emit(index % 2 === 0 ? "stdout" : "stderr", Uint8Array.of(index));
    }
    session.finish();
    session.finish();
    await session.idle();
    await flush();

    expect(log).toEqual(["out0", "out1", "out2", "out3", "finish(active=0)"]);
    expect(maxActive).toBe(1);
  });

  it("copies the chunk on emit, so the producer may reuse its buffer", async () => {
    const received: Uint8Array[] = [];
    const session = createOutputSession(
      (_id, _stream, chunk) => {
        received.push(chunk);
      },
      { maxBytesPerStream: 64 },
    );
    const buffer = bytes("first");
    const pooled = Buffer.from("pooled");

    session.emit("stdout", buffer);
    buffer.fill(0x21);
    session.emit("stderr", pooled);
    pooled.fill(0x21);
    await session.idle();

    expect(received.map((chunk) => new TextDecoder().decode(chunk))).toEqual(["first", "pooled"]);
    expect(received[0]).not.toBe(buffer);
    expect(received[1]?.buffer.byteLength).toBe(6);
  });

  it("rejects a malformed budget with ConfigurationError", () => {
    const { observer } = recordingObserver();
    for (const maxBytesPerStream of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createOutputSession(observer, { maxBytesPerStream })).toThrow(
        ConfigurationError,
      );
    }
  });

  it("idle resolves at once for a session with nothing queued", async () => {
    const { observer } = recordingObserver();
    const session = createOutputSession(observer, { maxBytesPerStream: 4 });
    await expect(session.idle()).resolves.toBeUndefined();
    expect(session.state).toBe("open");
  });
});
