import type { ShellLimits, ShellOutputObserver } from "@agent-bridle/core";
import type { Backend } from "../backend/backend.js";
import type { ResourceLimits } from "../backend/resource-limits.js";
import type { GitIdentity } from "../funnel/private-home.js";

/**
 * The options every shell engine takes (each engine's options extend these with its
 * own; the facade's `ShellOptions` is built from them). `L` is the engine's limits.
 */
export interface CommonShellToolOptions<L extends ShellLimits = ShellLimits> {
  /** Where a request without `cwd` (or with a relative one) runs. Absolute. */
  readonly baseDir?: string;
  /** The children's `HOME` and `TMPDIR`, absolute (explicit: a trust decision). */
  readonly home: string;
  readonly tmpdir: string;
  /** The L3 backend; default the host's (the launcher on Linux). */
  readonly backend?: Backend;
  /**
   * Limits of every call's process tree, over `DEFAULT_RESOURCE_LIMITS` (512 processes
   * and threads, 4 GiB for the whole tree, files up to 1 GiB, 4096 open files, a 512 MiB
   * `/tmp`, 1 GiB written by an interpreter's own redirections). One the call runs into
   * is reported in the envelope (`LIMIT_EXCEEDED`, naming it).
   */
  readonly resourceLimits?: ResourceLimits;
  /** The git identity of a call's private home (when `HOME` is not granted; default `DEFAULT_GIT_IDENTITY`). */
  readonly gitIdentity?: GitIdentity | undefined;
  /** Timeouts and output caps over the engine's defaults. */
  readonly limits?: Partial<L>;
  /** Live output, per invocation (reference §8). */
  readonly observer?: ShellOutputObserver;
  /** Registered name; default `shell`. */
  readonly name?: string;
}
