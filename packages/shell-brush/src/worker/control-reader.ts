/**
 * The worker's reading of its private channel: whole control frames, one at a time,
 * each within a deadline; then, after the request, the end of the parent's stream (a
 * second request is a refusal, never run).
 */
import type { Socket } from "node:net";
import { CONTROL_HEADER_BYTES, MAX_CONTROL_BODY } from "./control-frames.js";

export class ControlReader {
  #buffered = Buffer.alloc(0);
  #ended = false;
  #failed: string | undefined;
  #wake: (() => void) | undefined;

  constructor(channel: Socket) {
    channel.on("data", (chunk: Buffer) => {
      this.#buffered = Buffer.concat([this.#buffered, chunk]);
      if (this.#buffered.length > CONTROL_HEADER_BYTES + MAX_CONTROL_BODY) {
        this.#failed = "a control frame over 1 MiB";
      }
      this.#wake?.();
    });
    channel.on("end", () => {
      this.#ended = true;
      this.#wake?.();
    });
    channel.on("error", () => {
      this.#failed ??= "the private channel failed";
      this.#wake?.();
    });
  }

  async #until(ready: () => boolean, timeoutMs: number, late: string): Promise<string | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (!ready()) {
      if (this.#failed !== undefined) return this.#failed;
      const left = deadline - Date.now();
      if (left <= 0) return late;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
    return this.#failed;
  }

  /** The next frame's JSON body, or why there is none. `end` when the parent closed first. */
  async frame(
    magic: Buffer,
    timeoutMs: number,
  ): Promise<{ readonly body: unknown } | { readonly error: string }> {
    // Decided as soon as it can be: at the end of stream, on a foreign magic or an
    // oversized length (refused below), or with the whole frame buffered.
    const complete = () => {
      if (this.#ended) return true;
      if (this.#buffered.length >= magic.length && !this.#buffered.subarray(0, 8).equals(magic))
        return true;
      if (this.#buffered.length < CONTROL_HEADER_BYTES) return false;
      const length = this.#buffered.readUInt32LE(8);
      return length > MAX_CONTROL_BODY || this.#buffered.length >= CONTROL_HEADER_BYTES + length;
    };
    const failure = await this.#until(complete, timeoutMs, "no frame from the parent in time");
    if (failure !== undefined) return { error: failure };
    if (this.#buffered.length >= magic.length && !this.#buffered.subarray(0, 8).equals(magic))
      return { error: "malformed frame (magic)" };
    if (this.#buffered.length < CONTROL_HEADER_BYTES) {
      return { error: this.#buffered.length === 0 ? "end" : "the channel closed mid-frame" };
    }
    const length = this.#buffered.readUInt32LE(8);
    if (length > MAX_CONTROL_BODY) return { error: "malformed frame (body length)" };
    if (this.#buffered.length < CONTROL_HEADER_BYTES + length) {
      return { error: "the channel closed mid-frame" };
    }
    const body = this.#buffered.subarray(CONTROL_HEADER_BYTES, CONTROL_HEADER_BYTES + length);
    this.#buffered = this.#buffered.subarray(CONTROL_HEADER_BYTES + length);
    try {
      return { body: JSON.parse(body.toString("utf8")) as unknown };
    } catch {
      return { error: "malformed frame (body)" };
    }
  }

  /** After the request: the parent's end of stream, and not one byte more. */
  async endOfStream(timeoutMs: number): Promise<string | undefined> {
    const failure = await this.#until(
      () => this.#ended || this.#buffered.length > 0,
      timeoutMs,
      "the parent did not close the channel after its request",
    );
    if (failure !== undefined) return failure;
    return this.#buffered.length > 0 ? "more than one request" : undefined;
  }
}
