import { describe, expect, it } from "vitest";
import {
  createProgressStream,
  PROGRESS_STREAM_META_KEY,
  type ProgressNotification,
  type ProgressStreamOptions,
} from "../src/progress.js";

/** The stream a progress notification carries output of (a heartbeat carries none). */
const streamOf = (notification: { params: { _meta: object } }) =>
  (notification.params._meta as Record<string, unknown>)[PROGRESS_STREAM_META_KEY];

const bytes = (text: string) => new TextEncoder().encode(text);
const turn = () => new Promise((resolve) => setImmediate(resolve));

function recorder(options: Partial<ProgressStreamOptions> = {}) {
  const sent: ProgressNotification[] = [];
  const progress = createProgressStream({
    token: "tok-1",
    send: async (notification) => {
      sent.push(notification);
    },
    ...options,
  });
  const observe = (stream: "stdout" | "stderr", text: string | Uint8Array) => {
    const result = (progress.observer as (id: never, stream: string, chunk: Uint8Array) => unknown)(
      1 as never,
      stream,
      typeof text === "string" ? bytes(text) : text,
    );
    expect(result).toBeUndefined();
  };
  const textOf = (stream: "stdout" | "stderr") =>
    sent
      .filter((n) => streamOf(n) === stream)
      .map((n) => n.params.message)
      .join("");
  return { progress, sent, observe, textOf };
}

describe("progress notifications from live output", () => {
  it("coalesces chunks into one notification per run of one stream, in order, with the token", async () => {
    const { progress, sent, observe } = recorder({ intervalMs: 60_000 });
    observe("stdout", "a");
    observe("stdout", "b");
    observe("stderr", "warn");
    observe("stdout", "c");
    expect(sent).toHaveLength(0);
    await progress.close();
    expect(sent.map((n) => [streamOf(n), n.params.message])).toEqual([
      ["stdout", "ab"],
      ["stderr", "warn"],
      ["stdout", "c"],
    ]);
    expect(sent.every((n) => n.method === "notifications/progress")).toBe(true);
    expect(sent.every((n) => n.params.progressToken === "tok-1")).toBe(true);
    // progress counts the bytes sent so far: it increases with every notification.
    expect(sent.map((n) => n.params.progress)).toEqual([2, 6, 7]);
  });

  it("sends on its own after the interval, without waiting for close", async () => {
    const { progress, sent, observe } = recorder({ intervalMs: 1 });
    observe("stdout", "early\n");
    for (let i = 0; i < 200 && sent.length === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(sent.map((n) => n.params.message)).toEqual(["early\n"]);
    await progress.close();
    expect(sent).toHaveLength(1);
  });

  it("bounds each message and flushes once that much is buffered", async () => {
    const { progress, sent, observe, textOf } = recorder({
      intervalMs: 60_000,
      maxMessageChars: 8,
    });
    observe("stdout", "0123456789abcdefghij");
    await turn();
    expect(sent.map((n) => n.params.message)).toEqual(["01234567", "89abcdef", "ghij"]);
    observe("stdout", "xyz");
    await progress.close();
    expect(textOf("stdout")).toBe("0123456789abcdefghijxyz");
    expect(sent.every((n) => n.params.message.length <= 8)).toBe(true);
  });

  it("never cuts a code point: UTF-8 split across chunks, surrogate pairs at the limit", async () => {
    const { progress, sent, observe, textOf } = recorder({
      intervalMs: 60_000,
      maxMessageChars: 3,
    });
    // "ab😀" is 4 code units: a cut at 3 would fall inside the pair.
    const encoded = bytes("ab😀é");
    observe("stdout", encoded.subarray(0, 3)); // "ab" and the first byte of 😀
    observe("stdout", encoded.subarray(3, 7)); // the rest of 😀 and the first byte of é
    observe("stdout", encoded.subarray(7));
    await progress.close();
    expect(textOf("stdout")).toBe("ab😀é");
    expect(sent.map((n) => n.params.message)).toEqual(["ab", "😀", "é"]);
    for (const { params } of sent) {
      expect(params.message).toBe(Buffer.from(params.message, "utf8").toString("utf8"));
      expect(params.message).not.toMatch(/\uFFFD/);
    }
  });

  it("holds at most the backlog: once it would overflow, progress stops (no holes)", async () => {
    let release: () => void = () => {};
    const blocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sent: string[] = [];
    const progress = createProgressStream({
      token: 7,
      intervalMs: 60_000,
      maxMessageChars: 4,
      maxBacklogBytes: 10,
      send: async (notification) => {
        await blocked;
        sent.push(notification.params.message);
      },
    });
    const observer = progress.observer as (id: never, s: string, c: Uint8Array) => void;
    observer(1 as never, "stdout", bytes("aaaa"));
    observer(1 as never, "stdout", bytes("bbbb"));
    observer(1 as never, "stdout", bytes("cccc")); // 12 > 10: dropped, and all after it
    observer(1 as never, "stdout", bytes("d"));
    release();
    await progress.close();
    expect(sent.join("")).toBe("aaaabbbb");
  });

  it("sends nothing after discard (a cancelled call)", async () => {
    const { progress, sent, observe } = recorder({ intervalMs: 60_000 });
    observe("stdout", "lost");
    progress.discard();
    observe("stdout", "more");
    await progress.close();
    expect(sent).toHaveLength(0);
  });

  it("a failing send loses that notification only", async () => {
    let calls = 0;
    const messages: string[] = [];
    const progress = createProgressStream({
      token: 1,
      intervalMs: 60_000,
      maxMessageChars: 2,
      send: async (notification) => {
        calls += 1;
        if (calls === 1) throw new Error("connection hiccup");
        messages.push(notification.params.message);
      },
    });
    (progress.observer as (id: never, s: string, c: Uint8Array) => void)(
      1 as never,
      "stdout",
      bytes("aabb"),
    );
    await progress.close();
    expect(messages).toEqual(["bb"]);
  });
});
