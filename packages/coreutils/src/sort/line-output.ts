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

  async flush(): Promise<void> {
    if (this.#batch.length === 0) return;
    const text = `${this.#batch.join("\n")}\n`;
    this.#batch = [];
    this.#size = 0;
    await this.#sink.write(Buffer.from(text, "latin1"));
  }
}
