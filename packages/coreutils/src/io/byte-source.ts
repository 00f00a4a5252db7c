import type { FileHandle } from "node:fs/promises";

/** Pull-based bytes: `read()` resolves to the next chunk, or `null` at end of input. */
export interface ByteSource {
  read(): Promise<Uint8Array | null>;
}

const CHUNK = 256 * 1024;

/**
 * Reads a file handle from its current position. By default a fresh buffer per chunk.
 * `reuse`: two buffers in turn, with the next read already in flight while the caller
 * works on the current chunk (the read runs on libuv's pool, so I/O and counting
 * overlap); a chunk is valid only until the next `read()` call, which suits consumers
 * that hand each chunk to a sink and await it before reading again.
 */
export function fileSource(handle: FileHandle, chunkSize = CHUNK, reuse = false): ByteSource {
  if (!reuse) {
    return {
      async read() {
        const buffer = Buffer.allocUnsafeSlow(chunkSize);
        const { bytesRead } = await handle.read(buffer, 0, chunkSize, null);
        return bytesRead === 0 ? null : buffer.subarray(0, bytesRead);
      },
    };
  }
  const buffers = [Buffer.allocUnsafeSlow(chunkSize), Buffer.allocUnsafeSlow(chunkSize)];
  let turn = 0;
  const fill = (buffer: Buffer) => handle.read(buffer, 0, chunkSize, null);
  let pending: ReturnType<typeof fill> | undefined;
  return {
    async read() {
      const current = buffers[turn] as Buffer;
      const { bytesRead } = await (pending ?? fill(current));
      if (bytesRead === 0) {
        pending = undefined;
        return null;
      }
      turn = 1 - turn;
      pending = fill(buffers[turn] as Buffer);
      // A consumer that stops early never awaits the prefetch; its failure is not news.
      pending.catch(() => undefined);
      return current.subarray(0, bytesRead);
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
