/** A growable byte buffer for formatted output built one byte at a time. */
export class ByteBuilder {
  #buffer: Buffer;
  #length = 0;

  constructor(capacity = 4096) {
    this.#buffer = Buffer.allocUnsafe(capacity);
  }

  get length(): number {
    return this.#length;
  }

  #ensure(extra: number): void {
    if (this.#length + extra <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#length + extra));
    this.#buffer.copy(grown, 0, 0, this.#length);
    this.#buffer = grown;
  }

  byte(value: number): void {
    this.#ensure(1);
    this.#buffer[this.#length] = value;
    this.#length += 1;
  }

  bytes(source: Uint8Array, start = 0, end = source.length): void {
    this.#ensure(end - start);
    this.#buffer.set(source.subarray(start, end), this.#length);
    this.#length += end - start;
  }

  /** ASCII / latin1 text, one byte per character. */
  text(value: string): void {
    this.#ensure(value.length);
    this.#length += this.#buffer.write(value, this.#length, "latin1");
  }

  /** The bytes so far (a copy), and an empty builder. */
  take(): Buffer {
    const out = Buffer.from(this.#buffer.subarray(0, this.#length));
    this.#length = 0;
    return out;
  }
}
