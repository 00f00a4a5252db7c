import type { OutputSession, ToolContext } from "@agent-bridle/core";
import type { Sandbox } from "@agent-bridle/sandbox";

/** What running an admitted script needs (one per call). */
export interface ExecutionContext {
  readonly cx: ToolContext;
  readonly sandbox: Sandbox;
  readonly cwd: string;
  /** Caller variables for the child (the funnel applies the denylist). */
  readonly callerEnv: Readonly<Record<string, string>>;
  /** `performance.now()` value after which the call has timed out. */
  readonly deadline: number;
  readonly maxOutputBytes: number;
  readonly signal: AbortSignal | undefined;
  readonly session: OutputSession | undefined;
  readonly maxGlobMatches: number;
  /** Executables a carried utility needs besides the grant (`node`, the launcher). */
  readonly carriedRuntime: () => Promise<CarriedRuntime>;
}

export interface CarriedRuntime {
  readonly executables: readonly string[];
  readonly readPaths: readonly string[];
}
