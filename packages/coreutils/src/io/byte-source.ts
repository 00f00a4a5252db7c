import type { FileHandle } from "node:fs/promises";

/** Pull-based bytes: `read()` resolves to the next chunk, or `null` at end of input. */
export interface ByteSource {
  read(): Promise<Uint8Array | null>;
}

const CHUNK = 256 * 1024;

/**
 * Reads a file handle from its current position. By default a fresh buffer per chunk;
 * `reuse`: one buffer for every read, so a chunk is valid only until the next read
 * (for consumers that hand each chunk to a sink and await it before reading again).
 */
export function fileSource(handle: FileHandle, chunkSize = CHUNK, reuse = false): ByteSource {
  const shared = reuse ? Buffer.allocUnsafeSlow(chunkSize) : undefined;
  return {
    async read() {
      const buffer = shared ?? Buffer.allocUnsafeSlow(chunkSize);
      const { bytesRead } = await handle.read(buffer, 0, chunkSize, null);
      return bytesRead === 0 ? null : buffer.subarray(0, bytesRead);
    },
  };
}

/**
 * Standard input, shared by every `-` operand of one run: once it has ended, later
 * reads see end of input at once (as a pipe does for GNU).
 */
export class StdinSource implements ByteSource {
  readonly #iterator: AsyncIterator<Uint8Array>;
  #ended = false;

  constructor(stdin: AsyncIterable<Uint8Array>) {
    this.#iterator = stdin[Symbol.asyncIterator]();
  }

  async read(): Promise<Uint8Array | null> {
    while (!this.#ended) {
      const next = await this.#iterator.next();
      if (next.done === true) {
        this.#ended = true;
        return null;
      }
      if (next.value.length > 0) return next.value;
    }
    return null;
  }

  /** The rest of this operand's input is not needed (head): stop here, keep the stream. */
  get ended(): boolean {
    return this.#ended;
  }
}
