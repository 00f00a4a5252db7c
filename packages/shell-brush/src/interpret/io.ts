/** Byte sinks and sources the interpreter reads and writes (memory or an open file). */
import { writeSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";

export interface OutputSink {
  write(chunk: Uint8Array | string): void;
}

/** Collects everything written, in order. */
export class MemorySink implements OutputSink {
  private readonly chunks: Buffer[] = [];

  write(chunk: Uint8Array | string): void {
    this.chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk));
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  text(): string {
    return this.bytes().toString("utf8");
  }
}

/** Writes straight to an opened file (a redirection target); `close` releases it. */
export class FileSink implements OutputSink {
  private open = true;
  private readonly fd: number;
  constructor(private readonly handle: FileHandle) {
    this.fd = handle.fd;
  }

  write(chunk: Uint8Array | string): void {
    if (!this.open) return;
    const data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let offset = 0;
    try {
      while (offset < data.length) offset += writeSync(this.fd, data, offset);
    } catch (error) {
      throw new WriteError(error);
    }
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    await this.handle.close();
  }
}

/** A failed write to a file (`/dev/full`, a closed pipe): builtins report it. */
export class WriteError extends Error {
  constructor(override readonly cause: unknown) {
    super((cause as Error).message);
  }
}

/** Discards everything (`/dev/null`). */
export const nullSink: OutputSink = { write: () => undefined };

/** Bytes available to read, consumed by `read`, external commands and so on. */
export class InputSource {
  private position = 0;
  constructor(private readonly data: Uint8Array) {}

  /** Everything not yet consumed (consumes it). */
  readAll(): Uint8Array {
    const rest = this.data.subarray(this.position);
    this.position = this.data.length;
    return rest;
  }

  readByte(): number | null {
    if (this.position >= this.data.length) return null;
    const byte = this.data[this.position] as number;
    this.position += 1;
    return byte;
  }

  atEnd(): boolean {
    return this.position >= this.data.length;
  }

  /** Up to and excluding `delimiter`; `found` false at end of input without one. */
  readUntil(delimiter: number): { text: string; found: boolean } | null {
    if (this.position >= this.data.length) return null;
    let end = this.data.indexOf(delimiter, this.position);
    const found = end >= 0;
    if (!found) end = this.data.length;
    const text = Buffer.from(this.data.subarray(this.position, end)).toString("utf8");
    this.position = found ? end + 1 : end;
    return { text, found };
  }

  readCount(count: number): string {
    const end = Math.min(this.data.length, this.position + count);
    const text = Buffer.from(this.data.subarray(this.position, end)).toString("utf8");
    this.position = end;
    return text;
  }
}

export type Channel = OutputSink | InputSource;

/** The descriptor table one command sees. */
export type Fds = Map<number, Channel>;

export function sinkOf(fds: Fds, fd: number): OutputSink {
  const channel = fds.get(fd);
  return channel === undefined || channel instanceof InputSource ? nullSink : channel;
}

export function sourceOf(fds: Fds, fd: number): InputSource {
  const channel = fds.get(fd);
  return channel instanceof InputSource ? channel : new InputSource(new Uint8Array());
}
