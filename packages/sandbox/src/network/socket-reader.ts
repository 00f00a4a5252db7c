import type { Socket } from "node:net";

/**
 * Reads a protocol's opening bytes from a client socket (an HTTP head, a SOCKS5
 * handshake) without consuming what follows: what was read past the opening is handed
 * on with the socket when relaying starts.
 */
export class SocketReader {
  #buffer = Buffer.alloc(0);
  #waiting: (() => void) | undefined;
  #ended = false;
  readonly #onData = (chunk: Buffer) => {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    this.#wake();
  };
  readonly #onEnd = () => {
    this.#ended = true;
    this.#wake();
  };

  constructor(readonly socket: Socket) {
    socket.on("data", this.#onData);
    socket.once("end", this.#onEnd);
    socket.once("close", this.#onEnd);
  }

  #wake() {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.();
  }

  /**
   * Waits until `complete` says how many bytes make the next piece (or `maxBytes` or the
   * end of the stream is reached: undefined), and takes them.
   */
  async take(
    complete: (buffer: Buffer) => number | undefined,
    maxBytes: number,
  ): Promise<Buffer | undefined> {
    for (;;) {
      const length = complete(this.#buffer);
      if (length !== undefined && length <= this.#buffer.length) {
        const piece = this.#buffer.subarray(0, length);
        this.#buffer = this.#buffer.subarray(length);
        return piece;
      }
      if (this.#ended || this.#buffer.length > maxBytes) return undefined;
      await new Promise<void>((resolve) => {
        this.#waiting = resolve;
      });
    }
  }

  /** Stops reading: the bytes received past the opening, for the upstream. */
  release(): Buffer {
    this.socket.off("data", this.#onData);
    this.socket.off("end", this.#onEnd);
    this.socket.off("close", this.#onEnd);
    this.socket.pause();
    const rest = this.#buffer;
    this.#buffer = Buffer.alloc(0);
    return rest;
  }
}
