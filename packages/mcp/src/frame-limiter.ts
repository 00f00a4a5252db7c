import { Transform, type TransformCallback } from "node:stream";

export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * Splits stdin into newline-terminated frames and passes on those of at most `maxBytes`
 * (newline excluded), one frame per chunk. A longer frame is drained without being kept
 * (memory stays bounded by `maxBytes`) and reported through `onOversized`; the frames
 * after it are served.
 *
 * Why: the SDK's stdio transport (1.32.2) keeps a 10 MiB buffer and, when a line exceeds
 * it, throws and closes the transport, which ends serving. Bounding frames first keeps the
 * SDK's buffer below its limit and the server alive.
 */
export class FrameLimiter extends Transform {
  readonly #maxBytes: number;
  readonly #onOversized: (bytes: number) => void;
  #pieces: Buffer[] = [];
  #length = 0;
  #dropping = false;

  constructor(maxBytes: number, onOversized: (bytes: number) => void) {
    super();
    this.#maxBytes = maxBytes;
    this.#onOversized = onOversized;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#take(chunk.subarray(start, end));
      if (newline === -1) break;
      this.#finishFrame();
      start = newline + 1;
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    // A last frame without a newline is not a complete message; it is dropped.
    this.#pieces = [];
    this.#length = 0;
    callback();
  }

  #take(piece: Buffer): void {
    this.#length += piece.length;
    if (this.#dropping) return;
    if (this.#length > this.#maxBytes) {
      this.#dropping = true;
      this.#pieces = [];
      return;
    }
    if (piece.length > 0) this.#pieces.push(Buffer.from(piece));
  }

  #finishFrame(): void {
    const length = this.#length;
    if (this.#dropping) this.#onOversized(length);
    else if (length > 0) this.push(Buffer.concat([...this.#pieces, Buffer.from("\n")]));
    this.#pieces = [];
    this.#length = 0;
    this.#dropping = false;
  }
}
