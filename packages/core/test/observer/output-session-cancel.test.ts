import { describe, expect, it } from "vitest";
import { createOutputSession } from "../../src/observer/output-session.js";
import {
  bytes,
  deferred,
  finished,
  flush,
  output,
  recordingObserver,
} from "./recording-observer.js";

describe("createOutputSession: cancellation", () => {
  it("case 71 (unit): timeout/cancel discards queued chunks and never calls onFinish", async () => {
    const { observer, events } = recordingObserver();
    const session = createOutputSession(observer, { maxBytesPerStream: 64 });

    session.emit("stdout", bytes("queued"));
    session.emit("stderr", bytes("also-queued"));
    session.cancel();
    session.emit("stdout", bytes("after-cancel"));
    session.finish();
    await session.idle();
    await flush();

    expect(events).toEqual([]);
    expect(session.state).toBe("cancelled");
  });

  it("case 71 (unit): a blocked callback does not hold up cancellation; nothing after it, and no onFinish", async () => {
    const gate = deferred();
    const { observer, events } = recordingObserver((text) =>
      text === "blocked" ? gate.promise : undefined,
    );
    const session = createOutputSession(observer, { maxBytesPerStream: 64 });

    session.emit("stdout", bytes("blocked"));
    session.emit("stdout", bytes("queued"));
    await flush();
    expect(events).toEqual([output(session.id, "stdout", "blocked")]);

    session.cancel();
    // Quiescence does not wait for the callback that is still blocked.
    await session.idle();
    session.emit("stdout", bytes("late"));
    gate.resolve();
    await flush();
    await flush();

    expect(events).toEqual([output(session.id, "stdout", "blocked")]);
    expect(session.state).toBe("cancelled");
  });

  it("is a no-op once finish() was called, so an engine may cancel in a finally", async () => {
    const { observer, events } = recordingObserver();
    const session = createOutputSession(observer, { maxBytesPerStream: 64 });

    session.emit("stdout", bytes("done"));
    session.finish();
    session.cancel();
    await session.idle();

    expect(events).toEqual([output(session.id, "stdout", "done"), finished(session.id)]);
    expect(session.state).toBe("finished");
  });
});
