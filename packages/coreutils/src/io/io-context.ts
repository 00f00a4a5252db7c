import type { Denial, GatedOpener } from "@agent-bridle/core";

/**
 * Where a utility writes bytes. A returned promise is backpressure: await it. The
 * chunk is lent: it is valid until the write resolves (a sink that keeps it copies it).
 */
export interface ByteSink {
  write(chunk: Uint8Array): Promise<void> | void;
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
