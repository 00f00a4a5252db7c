import type { ByteSink } from "./io-context.js";

const DEFAULT_LIMIT = 64 * 1024;

/**
 * Collects small writes and hands them to a sink in chunks of about `limit` bytes,
 * awaiting the sink each time (backpressure). Large chunks pass straight through.
 */
export class OutputBuffer {
  readonly #sink: ByteSink;
  readonly #limit: number;
  #chunks: Uint8Array[] = [];
  #size = 0;

  constructor(sink: ByteSink, limit = DEFAULT_LIMIT) {
    this.#sink = sink;
    this.#limit = limit;
  }

  /** Queue bytes; resolves once the sink accepted everything beyond the limit. */
  async write(chunk: Uint8Array): Promise<void> {
    if (chunk.length === 0) return;
    if (chunk.length >= this.#limit) {
      await this.flush();
      await this.#sink.write(chunk);
      return;
    }
    // Copied: a producer may reuse its buffer once this write resolves.
    this.#chunks.push(Buffer.from(chunk));
    this.#size += chunk.length;
    if (this.#size >= this.#limit) await this.flush();
  }

  writeText(text: string): Promise<void> {
    return this.write(Buffer.from(text, "latin1"));
  }

  async flush(): Promise<void> {
    if (this.#size === 0) return;
    const joined =
      this.#chunks.length === 1 ? (this.#chunks[0] as Uint8Array) : Buffer.concat(this.#chunks);
    this.#chunks = [];
    this.#size = 0;
    await this.#sink.write(joined);
  }
}
