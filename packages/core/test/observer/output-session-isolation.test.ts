import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOutputSession } from "../../src/observer/output-session.js";
import type { ShellInvocationId } from "../../src/observer/shell-invocation-id.js";
import type { ShellOutputObserver } from "../../src/observer/shell-output-observer.js";
import {
  bytes,
  deferred,
  finished,
  flush,
  type ObservedEvent,
  output,
  recordingObserver,
} from "./recording-observer.js";

function eventsOf(events: readonly ObservedEvent[], id: ShellInvocationId): ObservedEvent[] {
  return events.filter((event) => event.id === id);
}

describe("createOutputSession: the producer never waits", () => {
  it("case 71 (unit): output is handed over before the producer completes; emit and finish return before any callback runs", async () => {
    const { observer, events } = recordingObserver();
    const session = createOutputSession(observer, { maxBytesPerStream: 64 });

    session.emit("stdout", bytes("one"));
    session.finish();
    expect(events).toEqual([]);
    await session.idle();
    expect(events).toEqual([output(session.id, "stdout", "one"), finished(session.id)]);
  });

  it("keeps enqueueing synchronously behind a callback that never resolves", async () => {
    const seen: string[] = [];
    const session = createOutputSession(
      (_id, _stream, chunk) => {
        seen.push(new TextDecoder().decode(chunk));
        return new Promise<void>(() => {});
      },
      { maxBytesPerStream: 1 << 20 },
    );

    session.emit("stdout", bytes("first"));
    expect(seen).toEqual([]);
    await flush();
    expect(seen).toEqual(["first"]);

    for (let index = 0; index < 1000; index += 1) session.emit("stderr", bytes("more"));
    session.finish();
    await flush();
    expect(seen).toEqual(["first"]);
    expect(session.state).toBe("finished");
  });
});

describe("createOutputSession: invocations are independent", () => {
  it("does not stall invocation B while invocation A's callback is blocked", async () => {
    const gate = deferred();
    const { observer, events } = recordingObserver((text) =>
      text === "blocked" ? gate.promise : undefined,
    );
    const a = createOutputSession(observer, { maxBytesPerStream: 64 });
    const b = createOutputSession(observer, { maxBytesPerStream: 64 });

    a.emit("stdout", bytes("blocked"));
    a.emit("stdout", bytes("after"));
    a.finish();
    b.emit("stdout", bytes("beta-out"));
    b.emit("stderr", bytes("beta-err"));
    b.finish();
    await b.idle();

    expect(eventsOf(events, b.id)).toEqual([
      output(b.id, "stdout", "beta-out"),
      output(b.id, "stderr", "beta-err"),
      finished(b.id),
    ]);
    expect(eventsOf(events, a.id)).toEqual([output(a.id, "stdout", "blocked")]);

    gate.resolve();
    await a.idle();
    expect(eventsOf(events, a.id)).toEqual([
      output(a.id, "stdout", "blocked"),
      output(a.id, "stdout", "after"),
      finished(a.id),
    ]);
  });

  it("gives concurrent sessions distinct ids and keeps their output apart", async () => {
    const { observer, events } = recordingObserver();
    const alpha = createOutputSession(observer, { maxBytesPerStream: 64 });
    const beta = createOutputSession(observer, { maxBytesPerStream: 64 });

    beta.emit("stdout", bytes("beta\n"));
    alpha.emit("stdout", bytes("alpha\n"));
    alpha.finish();
    beta.finish();
    await Promise.all([alpha.idle(), beta.idle()]);

    expect(alpha.id).not.toBe(beta.id);
    expect(eventsOf(events, alpha.id)).toEqual([
      output(alpha.id, "stdout", "alpha\n"),
      finished(alpha.id),
    ]);
    expect(eventsOf(events, beta.id)).toEqual([
      output(beta.id, "stdout", "beta\n"),
      finished(beta.id),
    ]);
  });
});

describe("createOutputSession: a failing observer is contained", () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };

  beforeEach(() => {
    unhandled.length = 0;
    process.on("unhandledRejection", onUnhandled);
  });

  afterEach(async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off("unhandledRejection", onUnhandled);
    expect(unhandled).toEqual([]);
  });

  const failures: [string, (text: string) => void | Promise<void>][] = [
    [
      "a synchronous throw",
      (text) => {
        if (text === "boom") throw new Error("observer failed");
      },
    ],
    [
      "a rejected promise",
      (text) => (text === "boom" ? Promise.reject(new Error("observer failed")) : undefined),
    ],
    [
      "an async function that throws later",
      async (text) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (text === "boom") throw new Error("observer failed");
      },
    ],
  ];

  it.each(failures)("%s stops that invocation only, with no onFinish", async (_name, react) => {
    const seen: string[] = [];
    const observer: ShellOutputObserver = {
      onOutput(id, _stream, chunk) {
        const text = new TextDecoder().decode(chunk);
        seen.push(`${id}:${text}`);
        return react(text);
      },
      onFinish(id) {
        seen.push(`${id}:finish`);
      },
    };
    const failing = createOutputSession(observer, { maxBytesPerStream: 64 });
    const healthy = createOutputSession(observer, { maxBytesPerStream: 64 });

    expect(() => {
      failing.emit("stdout", bytes("ok"));
      failing.emit("stdout", bytes("boom"));
      failing.emit("stderr", bytes("later"));
      failing.finish();
      healthy.emit("stdout", bytes("fine"));
      healthy.finish();
    }).not.toThrow();
    await Promise.all([failing.idle(), healthy.idle()]);
    await flush();

    expect(seen.filter((entry) => entry.startsWith(`${failing.id}:`))).toEqual([
      `${failing.id}:ok`,
      `${failing.id}:boom`,
    ]);
    expect(seen.filter((entry) => entry.startsWith(`${healthy.id}:`))).toEqual([
      `${healthy.id}:fine`,
      `${healthy.id}:finish`,
    ]);
    expect(failing.state).toBe("cancelled");
    failing.emit("stdout", bytes("after-failure"));
    await flush();
    expect(seen).not.toContain(`${failing.id}:after-failure`);
  });

  it("contains a throwing or rejecting onFinish", async () => {
    const syncThrow = createOutputSession(
      {
        onOutput() {},
        onFinish() {
          throw new Error("finish failed");
        },
      },
      { maxBytesPerStream: 8 },
    );
    const rejecting = createOutputSession(
      {
        onOutput() {},
        onFinish: () => Promise.reject(new Error("finish failed")),
      },
      { maxBytesPerStream: 8 },
    );

    syncThrow.emit("stdout", bytes("x"));
    syncThrow.finish();
    rejecting.finish();
    await Promise.all([syncThrow.idle(), rejecting.idle()]);

    expect(syncThrow.state).toBe("finished");
    expect(rejecting.state).toBe("finished");
  });
});
