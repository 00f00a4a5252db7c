import type { ByteSource } from "../io/byte-source.js";

const NEWLINE = 0x0a;

/**
 * Pulls lines (latin1 byte strings, newline removed) from a byte source one at a time,
 * holding only the current chunk's lines.
 */
export class LineReader {
  readonly #source: ByteSource;
  #lines: string[] = [];
  #index = 0;
  #carry: Buffer | undefined;
  #ended = false;

  constructor(source: ByteSource) {
    this.#source = source;
  }

  async next(): Promise<string | null> {
    while (this.#index >= this.#lines.length) {
      if (this.#ended) return null;
      await this.#fill();
    }
    const line = this.#lines[this.#index] as string;
    this.#index += 1;
    return line;
  }

  /** The lines left in the current chunk (at least one), or `null` at the end. */
  async nextBatch(): Promise<readonly string[] | null> {
    while (this.#index >= this.#lines.length) {
      if (this.#ended) return null;
      await this.#fill();
    }
    const batch = this.#index === 0 ? this.#lines : this.#lines.slice(this.#index);
    this.#index = this.#lines.length;
    return batch;
  }

  async #fill(): Promise<void> {
    this.#lines = [];
    this.#index = 0;
    const chunk = await this.#source.read();
    if (chunk === null) {
      this.#ended = true;
      if (this.#carry !== undefined) this.#lines.push(this.#carry.toString("latin1"));
      this.#carry = undefined;
      return;
    }
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    const first = bytes.indexOf(NEWLINE);
    if (first === -1) {
      this.#carry =
        this.#carry === undefined ? Buffer.from(bytes) : Buffer.concat([this.#carry, bytes]);
      return;
    }
    const last = bytes.lastIndexOf(NEWLINE);
    // One latin1 string per chunk, split into lines (no input-sized string is built).
    this.#lines = bytes.toString("latin1", first + 1, last).split("\n");
    if (first + 1 > last) this.#lines = [];
    const head =
      this.#carry === undefined
        ? bytes.toString("latin1", 0, first)
        : Buffer.concat([this.#carry, bytes.subarray(0, first)]).toString("latin1");
    this.#carry = undefined;
    this.#lines.unshift(head);
    const start = last + 1;
    if (start < bytes.length) {
      const rest = Buffer.from(bytes.subarray(start));
      this.#carry = this.#carry === undefined ? rest : Buffer.concat([this.#carry, rest]);
    }
  }
}
