/** How an interpreter is set up, and what a run returns. */
import type { Denial } from "@agent-bridle/core";
import type { ExternalRunner } from "./io/external.js";
import type { OutputSink } from "./io/io.js";
import type { ShellAccess } from "./io/shell-access.js";
import type { WriteMeter } from "./io/write-meter.js";

export interface InterpreterOptions {
  readonly cwd: string;
  /** The initial environment: every entry becomes an exported variable. */
  readonly env?: Readonly<Record<string, string>>;
  /** Runs external commands; required: the interpreter never spawns by itself. */
  readonly runner: ExternalRunner;
  /**
   * The one door to the filesystem and to programs: every open, listing, probe and
   * command start asks it first. Required: the interpreter has no default authority.
   */
  readonly access: ShellAccess;
  /** Receives every refusal by `access`'s policy (opens, listings, probes, exec checks). */
  readonly onDenial?: (denial: Denial) => void;
  /** Live sinks for the script's stdout and stderr (the result's buffers are then empty). */
  readonly stdout?: OutputSink;
  readonly stderr?: OutputSink;
  readonly scriptName?: string;
  readonly args?: readonly string[];
  readonly stdin?: Uint8Array;
  /** Cancellation: once aborted, the next command ends the run with status 124. */
  readonly signal?: AbortSignal;
  /**
   * Wall-clock limit (`Date.now()` milliseconds): checked before every command, since a
   * loop of in-process builtins never yields to the event loop for a timer to fire.
   */
  readonly deadline?: number;
  /** Counts what the interpreter writes to files itself (redirections) against a limit. */
  readonly writeMeter?: WriteMeter;
}

/** The run's status, and its output when no live `stdout`/`stderr` sink was given. */
export interface RunResult {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly exitCode: number;
}
