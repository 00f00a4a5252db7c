import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../src/errors/configuration-error.js";
import { joinOutputObservers } from "../../src/observer/join-output-observers.js";
import { createOutputSession } from "../../src/observer/output-session.js";
import { bytes, finished, flush, output, recordingObserver } from "./recording-observer.js";

describe("joinOutputObservers (the tool's observer and the call's)", () => {
  it("is undefined without observers and the one observer when only one is given", () => {
    const { observer } = recordingObserver();
    expect(joinOutputObservers(undefined, undefined)).toBeUndefined();
    expect(joinOutputObservers(observer, undefined)).toBe(observer);
    expect(joinOutputObservers(undefined, observer)).toBe(observer);
  });

  it("delivers every chunk, then the finish, to both, in order", async () => {
    const tool = recordingObserver();
    const call = recordingObserver();
    const joined = joinOutputObservers(tool.observer, call.observer);
    if (joined === undefined) throw new Error("expected a joined observer");
    const session = createOutputSession(joined, { maxBytesPerStream: 64 });
    session.emit("stdout", bytes("one "));
    session.emit("stderr", bytes("warn"));
    session.emit("stdout", bytes("two"));
    session.finish();
    await flush();
    const expected = [
      output(session.id, "stdout", "one "),
      output(session.id, "stderr", "warn"),
      output(session.id, "stdout", "two"),
      finished(session.id),
    ];
    expect(tool.events).toEqual(expected);
    expect(call.events).toEqual(expected);
  });

  it("a throwing observer loses observation alone; the other still gets everything", async () => {
    const call = recordingObserver();
    let calls = 0;
    const throwing = () => {
      calls += 1;
      throw new Error("observer bug");
    };
    const joined = joinOutputObservers(throwing, call.observer);
    if (joined === undefined) throw new Error("expected a joined observer");
    const session = createOutputSession(joined, { maxBytesPerStream: 64 });
    session.emit("stdout", bytes("a"));
    session.emit("stdout", bytes("b"));
    session.finish();
    await flush();
    expect(calls).toBe(1);
    expect(call.events).toEqual([
      output(session.id, "stdout", "a"),
      output(session.id, "stdout", "b"),
      finished(session.id),
    ]);
    expect(session.state).toBe("finished");
  });

  it("each observer gets its own copy of a chunk", async () => {
    const seen: Uint8Array[] = [];
    const scribbler = (_id: unknown, _stream: unknown, chunk: Uint8Array) => {
      chunk.fill(0x21);
    };
    const joined = joinOutputObservers(scribbler, (_id, _stream, chunk) => {
      seen.push(chunk);
    });
    if (joined === undefined) throw new Error("expected a joined observer");
    const session = createOutputSession(joined, { maxBytesPerStream: 64 });
    session.emit("stdout", bytes("kept"));
    await flush();
    expect(new TextDecoder().decode(seen[0])).toBe("kept");
  });

  it("refuses a malformed observer when both are given", () => {
    expect(() => joinOutputObservers({} as never, () => {})).toThrow(ConfigurationError);
  });
});
