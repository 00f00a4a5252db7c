/** Byte sinks and sources the interpreter reads and writes (memory, a pipe or an open file). */

import { fstatSync, writeSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { decodeShellBytes, encodeShellText } from "@agent-bridle/bash";
import { ExitSignal } from "../signals.js";
import { type WriteMeter, writeLimitError } from "./write-meter.js";

export interface OutputSink {
  write(chunk: Uint8Array | string): void;
}

/** Collects everything written, in order. */
export class MemorySink implements OutputSink {
  private readonly chunks: Buffer[] = [];

  write(chunk: Uint8Array | string): void {
    this.chunks.push(typeof chunk === "string" ? encodeShellText(chunk) : Buffer.from(chunk));
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  /** The output as shell text (bash drops NUL bytes from a command substitution). */
  text(): string {
    const bytes = this.bytes();
    return decodeShellBytes(bytes.includes(0) ? bytes.filter((byte) => byte !== 0) : bytes);
  }
}

/** Whether `fd` is a regular file (what a write meter counts). */
function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

/**
 * Writes straight to an opened file (a redirection target); `close` releases it. With a
 * `meter`, what goes to a regular file counts against the run's write limit: a write past
 * it writes what still fits and fails with `EDQUOT`.
 */
export class FileSink implements OutputSink {
  private open = true;
  private readonly fd: number;
  private readonly meter: WriteMeter | undefined;
  constructor(
    private readonly handle: FileHandle,
    meter?: WriteMeter,
  ) {
    this.fd = handle.fd;
    this.meter = meter !== undefined && isRegularFile(this.fd) ? meter : undefined;
  }

  write(chunk: Uint8Array | string): void {
    if (!this.open) return;
    const data = typeof chunk === "string" ? encodeShellText(chunk) : chunk;
    const length = this.meter === undefined ? data.length : this.meter.take(data.length);
    let offset = 0;
    try {
      while (offset < length) offset += writeSync(this.fd, data, offset, length - offset);
    } catch (error) {
      throw new WriteError(error);
    }
    if (length < data.length) throw new WriteError(writeLimitError());
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

/**
 * A write to a pipe whose reader has gone: SIGPIPE. It ends the writing stage the way
 * the signal would, with status 141 and no message (it travels as an `exit`).
 */
export class BrokenPipe extends ExitSignal {
  constructor() {
    super(141);
  }
}

/** A host's sink, handed bytes only: text is encoded as the shell's bytes first. */
export function encodingSink(sink: OutputSink): OutputSink {
  return {
    write: (chunk) => sink.write(typeof chunk === "string" ? encodeShellText(chunk) : chunk),
  };
}

/** Discards everything (`/dev/null`). */
export const nullSink: OutputSink = { write: () => undefined };

/**
 * Bytes to read, consumed by `read`, external commands and so on: fixed bytes (a file, a
 * here-document) or a pipe another pipeline stage is still writing (`streaming`). The
 * synchronous reads see what has arrived; `waitByte`, `fillAll` and `chunks` wait for
 * more until the writer ends the pipe.
 */
export class InputSource {
  private data: Uint8Array;
  private position = 0;
  private pending: Uint8Array[] = [];
  private ended: boolean;
  private readerClosed = false;
  private waiters: (() => void)[] = [];

  constructor(data: Uint8Array = new Uint8Array(), streaming = false) {
    this.data = data;
    this.ended = !streaming;
  }

  /** The writer's side of a pipe: more bytes (throws `BrokenPipe` once the reader is gone). */
  append(chunk: Uint8Array): void {
    if (this.readerClosed) throw new BrokenPipe();
    if (chunk.length === 0) return;
    this.pending.push(Buffer.from(chunk));
    this.wake();
  }

  /** The writer is done: readers see the end of input. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  /** The reader is done: later writes fail with `BrokenPipe`. */
  closeReader(): void {
    this.readerClosed = true;
    this.pending = [];
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private arrived(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private flatten(): void {
    if (this.pending.length === 0) return;
    this.data = Buffer.concat([this.data.subarray(this.position), ...this.pending]);
    this.position = 0;
    this.pending = [];
  }

  /** Whether every byte has arrived (fixed bytes, or a pipe its writer has ended). */
  isComplete(): boolean {
    return this.ended;
  }

  /** Wait until the writer has ended the input (fixed bytes: at once). */
  async fillAll(): Promise<void> {
    while (!this.ended) await this.arrived();
  }

  /** The next byte, waiting for the writer when none has arrived; null at the end. */
  async waitByte(): Promise<number | null> {
    for (;;) {
      const byte = this.readByte();
      if (byte !== null || this.ended) return byte;
      await this.arrived();
    }
  }

  /** The input as chunks as they arrive (the carried utilities' stdin). */
  async *chunks(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const rest = this.readAll();
      if (rest.length > 0) yield rest;
      else if (this.ended) return;
      else await this.arrived();
    }
  }

  /** Everything not yet consumed (consumes it). */
  readAll(): Uint8Array {
    this.flatten();
    const rest = this.data.subarray(this.position);
    this.position = this.data.length;
    return rest;
  }

  readByte(): number | null {
    if (this.position >= this.data.length) this.flatten();
    if (this.position >= this.data.length) return null;
    const byte = this.data[this.position] as number;
    this.position += 1;
    return byte;
  }

  atEnd(): boolean {
    this.flatten();
    return this.position >= this.data.length;
  }

  /** Up to and excluding `delimiter`; `found` false at end of input without one. */
  readUntil(delimiter: number): { text: string; found: boolean } | null {
    this.flatten();
    if (this.position >= this.data.length) return null;
    let end = this.data.indexOf(delimiter, this.position);
    const found = end >= 0;
    if (!found) end = this.data.length;
    const text = decodeShellBytes(this.data.subarray(this.position, end));
    this.position = found ? end + 1 : end;
    return { text, found };
  }

  readCount(count: number): string {
    this.flatten();
    const end = Math.min(this.data.length, this.position + count);
    const text = decodeShellBytes(this.data.subarray(this.position, end));
    this.position = end;
    return text;
  }
}

/** The writer's end of a pipe between two pipeline stages. */
export class PipeSink implements OutputSink {
  constructor(private readonly pipe: InputSource) {}

  write(chunk: Uint8Array | string): void {
    this.pipe.append(typeof chunk === "string" ? encodeShellText(chunk) : chunk);
  }
}

export type Channel = OutputSink | InputSource;

/** The descriptor table one command sees. */
export type Fds = Map<number, Channel>;

export function sinkOf(fds: Fds, fd: number): OutputSink {
  const channel = fds.get(fd);
  if (channel === undefined) return nullSink;
  // An input that is also a sink (`<>` on /dev/tcp: one connection both ways) is written.
  if (channel instanceof InputSource)
    return "write" in channel ? (channel as OutputSink) : nullSink;
  return channel;
}

export function sourceOf(fds: Fds, fd: number): InputSource {
  const channel = fds.get(fd);
  return channel instanceof InputSource ? channel : new InputSource(new Uint8Array());
}
