/**
 * The child's reading of its private channel: whole frames, one at a time, each within
 * a deadline and its spec's size bounds; then the end of the parent's stream and not one
 * byte more (a second frame is a refusal, never read). Used by the carried coreutils
 * entry and the bash worker alike.
 */
import type { Socket } from "node:net";
import { FRAME_HEADER_BYTES, type FrameSpec, frameBodyLength } from "./frames.js";

/** A frame's body, or why there is none (`end`: the parent closed before its first byte). */
export type FrameRead = { readonly body: Buffer } | { readonly error: string };

/** The reason `frame` gives when its deadline passes. */
export const NO_FRAME_IN_TIME = "no frame from the parent in time";

export class ChannelReader {
  #buffered = Buffer.alloc(0);
  #ended = false;
  #failed: string | undefined;
  #wake: (() => void) | undefined;

  /**
   * `maxBody`: the largest body of any frame read here. No more than one such frame
   * and a byte is ever held: what a parent sends beyond is dropped unread (it is
   * already a refusal: a frame over its bound, or bytes after the last frame).
   */
  constructor(channel: Socket, maxBody: number) {
    const cap = FRAME_HEADER_BYTES + maxBody + 1;
    channel.on("data", (chunk: Buffer) => {
      if (this.#buffered.length >= cap) return;
      const joined = Buffer.concat([this.#buffered, chunk]);
      this.#buffered = joined.length > cap ? joined.subarray(0, cap) : joined;
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

  /** The next frame of this spec, decided as soon as it can be (a bad header at once). */
  async frame(spec: FrameSpec, timeoutMs: number): Promise<FrameRead> {
    const complete = () => {
      if (this.#ended) return true;
      const header = frameBodyLength(spec, this.#buffered);
      if (header === "more") return false;
      return "error" in header || this.#buffered.length >= FRAME_HEADER_BYTES + header.length;
    };
    const failure = await this.#until(complete, timeoutMs, NO_FRAME_IN_TIME);
    if (failure !== undefined) return { error: failure };
    const header = frameBodyLength(spec, this.#buffered);
    if (header !== "more" && "error" in header) return header;
    if (header === "more") {
      return { error: this.#buffered.length === 0 ? "end" : "the channel closed mid-frame" };
    }
    const end = FRAME_HEADER_BYTES + header.length;
    if (this.#buffered.length < end) return { error: "the channel closed mid-frame" };
    const body = this.#buffered.subarray(FRAME_HEADER_BYTES, end);
    this.#buffered = this.#buffered.subarray(end);
    return { body };
  }

  /** After the last frame: the parent's end of stream. `extra` names what more bytes are. */
  async endOfStream(timeoutMs: number, extra = "more than one frame"): Promise<string | undefined> {
    const failure = await this.#until(
      () => this.#ended || this.#buffered.length > 0,
      timeoutMs,
      "the parent did not close the channel after its frame",
    );
    if (failure !== undefined) return failure;
    return this.#buffered.length > 0 ? extra : undefined;
  }
}
