/**
 * External commands, isolated behind `ExternalRunner`: the interpreter never spawns by
 * itself. The host supplies the runner (the bash worker will supply the gated
 * `@agent-bridle/sandbox` entry; tests and the compat runner use a dev-only one).
 */

/**
 * A descriptor the command gets besides 0–2: the interpreter's process substitutions
 * (`<(…)` is `input`, `>(…)` is `output`). The runner arranges it at the descriptor's
 * number, so the `/dev/fd/N` path the interpreter put in `argv` works in the child.
 */
export type ExternalDescriptor =
  | { readonly input: Uint8Array }
  | { readonly output: (chunk: Uint8Array) => void };

export interface ExternalRequest {
  /** The resolved executable path. */
  readonly file: string;
  /** argv, `argv[0]` as spelled. */
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Bytes, or a pipe's chunks as they arrive (the runner writes them with backpressure). */
  readonly stdin: Uint8Array | AsyncIterable<Uint8Array>;
  readonly stdout: (chunk: Uint8Array) => void;
  readonly stderr: (chunk: Uint8Array) => void;
  /** Extra descriptors by number (process substitutions named in `argv`). */
  readonly descriptors?: ReadonlyMap<number, ExternalDescriptor>;
  /** Aborting kills the command (the interpreter's deadline or cancellation). */
  readonly signal?: AbortSignal;
}

export interface ExternalResult {
  /** Exit status, or 128 + signal number when killed by a signal. */
  readonly status: number;
}

export interface ExternalRunner {
  run(request: ExternalRequest): Promise<ExternalResult>;
}
