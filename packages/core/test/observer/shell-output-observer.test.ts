import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../src/errors/configuration-error.js";
import { createOutputSession } from "../../src/observer/output-session.js";
import {
  allocateShellInvocationId,
  type ShellInvocationId,
} from "../../src/observer/shell-invocation-id.js";
import {
  normalizeOutputObserver,
  SHELL_OUTPUT_STREAMS,
  type ShellOutputObserver,
  type ShellOutputObserverObject,
  type ShellOutputStream,
} from "../../src/observer/shell-output-observer.js";
import { bytes, flush } from "./recording-observer.js";

describe("ShellInvocationId", () => {
  it("is allocated from a strictly increasing positive integer counter", () => {
    const first = allocateShellInvocationId();
    const second = allocateShellInvocationId();
    expect(Number.isSafeInteger(first)).toBe(true);
    expect(first).toBeGreaterThanOrEqual(1);
    expect(second).toBe(first + 1);
  });

  it("gives every session a distinct id", () => {
    const ids = new Set<ShellInvocationId>();
    for (let index = 0; index < 50; index += 1) {
      ids.add(createOutputSession(() => {}, { maxBytesPerStream: 1 }).id);
    }
    expect(ids.size).toBe(50);
  });
});

describe("normalizeOutputObserver", () => {
  it("accepts a plain function as the observer, with no onFinish", async () => {
    const seen: [ShellInvocationId, ShellOutputStream, string][] = [];
    const session = createOutputSession(
      (id, stream, chunk) => {
        seen.push([id, stream, new TextDecoder().decode(chunk)]);
      },
      { maxBytesPerStream: 64 },
    );

    session.emit("stderr", bytes("plain"));
    session.finish();
    await session.idle();

    expect(seen).toEqual([[session.id, "stderr", "plain"]]);
    expect(session.state).toBe("finished");
  });

  it("calls an object's methods with the observer as `this`", async () => {
    class Collector implements ShellOutputObserverObject {
      readonly #log: string[] = [];
      onOutput(_id: ShellInvocationId, stream: ShellOutputStream, chunk: Uint8Array): void {
        this.#log.push(`${stream}:${new TextDecoder().decode(chunk)}`);
      }
      onFinish(): void {
        this.#log.push("finish");
      }
      get log(): readonly string[] {
        return this.#log;
      }
    }
    const collector = new Collector();
    const session = createOutputSession(collector, { maxBytesPerStream: 64 });

    session.emit("stdout", bytes("hi"));
    session.finish();
    await session.idle();

    expect(collector.log).toEqual(["stdout:hi", "finish"]);
  });

  it("returns a frozen pair whose onFinish is a no-op when absent", async () => {
    const normalized = normalizeOutputObserver({ onOutput() {} });
    expect(Object.isFrozen(normalized)).toBe(true);
    expect(await normalized.onFinish(allocateShellInvocationId())).toBeUndefined();
  });

  it("rejects values that are not observers with ConfigurationError", () => {
    const malformed = [
      null,
      42,
      "observer",
      {},
      { onOutput: "not a function" },
      { onOutput() {}, onFinish: 1 },
    ] as unknown as ShellOutputObserver[];
    for (const observer of malformed) {
      expect(() => normalizeOutputObserver(observer)).toThrow(ConfigurationError);
      expect(() => createOutputSession(observer, { maxBytesPerStream: 1 })).toThrow(
        ConfigurationError,
      );
    }
  });

  it("names both streams", async () => {
    expect(SHELL_OUTPUT_STREAMS).toEqual(["stdout", "stderr"]);
    expect(Object.isFrozen(SHELL_OUTPUT_STREAMS)).toBe(true);
    await flush();
  });
});
