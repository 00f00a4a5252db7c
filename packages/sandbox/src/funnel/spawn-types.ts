import type { OutputSession } from "@agent-bridle/core";

/** How the applied backend wraps each stage: an argv prefix and a policy on a descriptor. */
export interface StageWrapper {
  wrap(argv: readonly string[], policyFd: number): readonly string[];
  /** Written to the policy descriptor of every stage, then closed. */
  readonly policyText?: string | undefined;
  /** The wrapper closes unlisted descriptors itself (no `/dev/null` cover needed). */
  readonly closesUnlistedDescriptors?: boolean | undefined;
}

/** One process launch, everything already decided (programs absolute, env built). */
export interface LaunchRequest {
  /** One argv per stage (`argv[0]` absolute); stage i's stdout is stage i+1's stdin. */
  readonly stages: readonly (readonly string[])[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Per-stream cap; stderr of all stages is concatenated in stage order, then capped. */
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal | undefined;
  /** A descriptor for the first stage's stdin; default `/dev/null`. */
  readonly stdin?: number | undefined;
  /** Descriptors passed to every stage as 3, 4, … (for example a private channel). */
  readonly extraDescriptors?: readonly number[] | undefined;
  readonly wrapper?: StageWrapper | undefined;
  /** Live output: the last stage's stdout and every stage's stderr, up to the cap. */
  readonly session?: OutputSession | undefined;
}

export interface SpawnResult {
  /** The last stage's exit code; `null` when it died of a signal. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  /** The deadline passed before the call completed (the tree was killed). */
  readonly timedOut: boolean;
  /** The caller's `AbortSignal` fired before the call completed (the tree was killed). */
  readonly cancelled: boolean;
  readonly elapsedMs: number;
}
