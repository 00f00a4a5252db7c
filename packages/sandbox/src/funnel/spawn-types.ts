import type { ChildProcess } from "node:child_process";
import type { OutputSession } from "@agent-bridle/core";
import type { ExceededLimit } from "./limit-trailer.js";

/** How the applied backend wraps each stage: an argv prefix and a policy on a descriptor. */
export interface StageWrapper {
  wrap(argv: readonly string[], policyFd: number): readonly string[];
  /** Written to the policy descriptor of every stage, then closed. */
  readonly policyText?: string | undefined;
  /** The wrapper closes unlisted descriptors itself (no `/dev/null` cover needed). */
  readonly closesUnlistedDescriptors?: boolean | undefined;
  /** Each stage's program runs as PID 1 of a PID namespace of its own, below the wrapper. */
  readonly pidNamespace?: boolean | undefined;
  /** A launcher whose `--serve` can start the wrapped argv (the host's spawn server, ADR 0023). */
  readonly server?: string | undefined;
}

/**
 * Where one stage's standard descriptors go, when not the default pipeline wiring (stage
 * i's stdout into stage i+1's stdin, the first stage's stdin from `stdin`, the last
 * stage's stdout and every stderr captured). Host descriptors are handed over as they
 * are; the funnel never opens anything for them.
 */
export interface StageStdio {
  /** Host descriptor for the stage's stdin (the previous stage's output then goes nowhere). */
  readonly stdin?: number | undefined;
  /**
   * Host descriptor for stdout, or `"closed"`: a pipe nobody reads (writes fail with
   * `EPIPE`/`SIGPIPE`, as into a pipeline stage that never started). Either way the next
   * stage reads end of file.
   */
  readonly stdout?: number | "closed" | undefined;
  /**
   * Host descriptor for stderr; `"stdout"`: where this stage's default stdout goes
   * (`2>&1` before any `>`); `"closed"`: a pipe nobody reads.
   */
  readonly stderr?: number | "stdout" | "closed" | undefined;
  /** This stage's descriptors 3, 4, … (instead of the request's `extraDescriptors`). */
  readonly extraDescriptors?: readonly number[] | undefined;
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
  /** Per-stage descriptor placement, by stage index (absent entries: the default wiring). */
  readonly stageStdio?: readonly (StageStdio | undefined)[] | undefined;
  /** Called once the stages run: lets the caller stop them keeping the event loop alive. */
  readonly onLaunched?: ((hold: LaunchHold) => void) | undefined;
  /** Live output: the last stage's stdout and every stage's stderr, up to the cap. */
  readonly session?: OutputSession | undefined;
  /**
   * The wrapper is the launcher: a captured stderr of a stage may end with its limit
   * trailer (taken off and reported in `limitsExceeded`), and a stage that exits with
   * 128 + SIGXFSZ (the launcher's status for a signal death, and a shell's for a child
   * killed so) ran into the file-size limit.
   */
  readonly reportsLimits?: boolean | undefined;
  /**
   * A host allow-list's egress proxy: every stage is spawned with an IPC channel (its
   * last stdio entry), over which its launcher hands over the listeners of the call's
   * proxy ports; this takes each stage's channel.
   */
  readonly netChannel?: ((child: ChildProcess) => void) | undefined;
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
  /**
   * Resource limits the tree ran into, as far as the funnel can tell: the launcher's
   * trailer (memory, processes) and a stage killed by SIGXFSZ (file_size). A program at
   * PID 1 of the launcher's namespace, or one that ignores SIGXFSZ (Node, Python), gets
   * `EFBIG` instead and is not seen here; an engine that opened the file can check it.
   */
  readonly limitsExceeded: readonly ExceededLimit[];
}

/**
 * Whether a running launch keeps Node's event loop alive (its processes, pipes and
 * deadline): an idle warm worker is `unref`'d so it never holds the host open.
 */
export interface LaunchHold {
  ref(): void;
  unref(): void;
  /**
   * Ends the run now without cancelling it: under the launcher (`reportsLimits`) every
   * process below each stage's launcher is killed and the launchers are left to reap
   * them and write their limit trailers, so the run completes with `limitsExceeded`
   * known; otherwise the whole tree is killed. Either way nothing the stages ran runs on.
   */
  end(): void;
}
