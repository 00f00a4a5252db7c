import type { ByteSink } from "../io/io-context.js";

const BATCH_BYTES = 1024 * 1024;

/** Newline-terminated lines to a sink, batched into ~1 MiB writes (awaited). */
export class LineOutput {
  readonly #sink: ByteSink;
  #batch: string[] = [];
  #size = 0;

  constructor(sink: ByteSink) {
    this.#sink = sink;
  }

  add(line: string): Promise<void> | undefined {
    this.#batch.push(line);
    this.#size += line.length + 1;
    return this.#size >= BATCH_BYTES ? this.flush() : undefined;
  }

  /** Every line of `lines`, in ~1 MiB writes (after anything already added). */
  async addAll(lines: readonly string[]): Promise<void> {
    await this.flush();
    let start = 0;
    while (start < lines.length) {
      let end = start;
      let size = 0;
      while (end < lines.length && size < BATCH_BYTES) {
        size += (lines[end] as string).length + 1;
        end += 1;
      }
      const text = `${lines.slice(start, end).join("\n")}\n`;
      start = end;
      await this.#sink.write(Buffer.from(text, "latin1"));
    }
  }

  async flush(): Promise<void> {
    if (this.#batch.length === 0) return;
    const text = `${this.#batch.join("\n")}\n`;
    this.#batch = [];
    this.#size = 0;
    await this.#sink.write(Buffer.from(text, "latin1"));
  }
}
