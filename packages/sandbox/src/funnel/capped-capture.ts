import type { Readable } from "node:stream";
import type { LimitTrailerFilter } from "./limit-trailer.js";

export interface CapturedOutput {
  readonly bytes: Buffer;
  /** True exactly when the stream produced more than the cap. */
  readonly truncated: boolean;
}

export interface CappedCapture {
  /** Settles when the stream closed (EOF, error, or destroyed by the funnel). */
  readonly closed: Promise<void>;
  result(): CapturedOutput;
  /** Stops reading (an escaped holder of the pipe must not keep the call alive). */
  destroy(): void;
}

/**
 * Reads a child's output stream to EOF, keeping at most `cap` bytes and draining and
 * discarding the rest (spec §13 item 9): the child never sees an early EOF or `EPIPE`,
 * and memory stays bounded by the cap plus one read chunk. `onKept` sees each kept
 * slice (the observer session's feed). A `trailer` filter sees the stream first: the
 * launcher's limit line is neither kept nor fed, and does not count against the cap.
 */
export function captureCapped(
  stream: Readable,
  cap: number,
  onKept?: (chunk: Buffer) => void,
  trailer?: LimitTrailerFilter,
): CappedCapture {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let truncated = false;
  const keep = (chunk: Buffer) => {
    if (chunk.length === 0) return;
    const room = cap - keptBytes;
    if (chunk.length > room) truncated = true;
    if (room <= 0) return;
    // A partial slice is copied so the whole read buffer is not retained.
    const slice = chunk.length <= room ? chunk : Buffer.from(chunk.subarray(0, room));
    kept.push(slice);
    keptBytes += slice.length;
    onKept?.(slice);
  };
  stream.on("data", (chunk: Buffer) => keep(trailer ? trailer.push(chunk) : chunk));
  // What the filter held back is released at the end of the stream, or when the result
  // is taken from a stream that never ended (destroyed after the grace).
  const release = () => {
    if (trailer) keep(trailer.end());
  };
  stream.once("end", release);
  const closed = new Promise<void>((resolve) => {
    stream.once("close", resolve);
    stream.once("error", () => resolve());
  });
  return {
    closed,
    result: () => {
      release();
      return { bytes: Buffer.concat(kept, keptBytes), truncated };
    },
    destroy: () => stream.destroy(),
  };
}

/** Concatenates captures in order and caps the whole; flags OR together (reference §3.8). */
export function concatCapped(parts: readonly CapturedOutput[], cap: number): CapturedOutput {
  const whole = Buffer.concat(parts.map((part) => part.bytes));
  const over = whole.length > cap;
  return {
    bytes: over ? Buffer.from(whole.subarray(0, cap)) : whole,
    truncated: over || parts.some((part) => part.truncated),
  };
}
