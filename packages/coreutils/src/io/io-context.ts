import type { BigIntStats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { Denial } from "@agent-bridle/core";

/**
 * Where a utility writes bytes. A returned promise is backpressure: await it. The
 * chunk is lent: it is valid until the write resolves (a sink that keeps it copies it).
 */
export interface ByteSink {
  write(chunk: Uint8Array): Promise<void> | void;
}

/**
 * Why a gated operation did not happen: the caller's policy refused it (`denial`, shown
 * as GNU's permission error and recorded), or the system failed it (`errno`, a Node
 * error code such as `ENOENT`, shown with the matching GNU text).
 */
export type GateRefusal =
  | { readonly ok: false; readonly denial: Denial }
  | { readonly ok: false; readonly errno: string };

export type GateOutcome<T> = { readonly ok: true; readonly value: T } | GateRefusal;

/**
 * The caller's gate over the filesystem. Every path is absolute (resolved against the
 * context's `cwd`); every operand a utility touches goes through one of these. `open`
 * opens for reading, `openWrite` creates or truncates (only `sort -o` writes).
 */
export interface GatedOpener {
  open(path: string): Promise<GateOutcome<FileHandle>>;
  openWrite(path: string): Promise<GateOutcome<FileHandle>>;
  stat(path: string): Promise<GateOutcome<BigIntStats>>;
  lstat(path: string): Promise<GateOutcome<BigIntStats>>;
  readdir(path: string): Promise<GateOutcome<readonly string[]>>;
  readlink(path: string): Promise<GateOutcome<string>>;
}

/** Everything a utility may use: its arguments, streams, directory and gate. */
export interface IoContext {
  /** Arguments after the utility name. */
  readonly argv: readonly string[];
  readonly stdin: AsyncIterable<Uint8Array>;
  readonly stdout: ByteSink;
  readonly stderr: ByteSink;
  /** Absolute directory relative operands resolve against. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly opener: GatedOpener;
  /** The per-call private directory `sort` may spill runs to (none: sort in memory). */
  readonly tempDir?: string | undefined;
  /** Receives every refusal by the caller's policy, once per refused operation. */
  readonly onDenial: (denial: Denial) => void;
  /** `sort` spills a run when its buffered lines exceed this many bytes (default 64 MiB). */
  readonly sortBufferBytes?: number | undefined;
}

/** A utility: run over a context, resolve to the exit status. */
export type Utility = (context: IoContext) => Promise<number>;
