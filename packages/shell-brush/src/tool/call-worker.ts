/**
 * One call on a ready worker: the request frame (then end of stream: take-once), the
 * result stream validated frame by frame as it arrives, the call's own deadline and
 * cancellation (either kills the worker's whole tree).
 */
import { type ExceededLimit, type LaunchedFacts, shellStatus } from "@agent-bridle/sandbox";
import { encodeControl, REQUEST_MAGIC, type RequestBody } from "../worker/control-frames.js";
import { FrameReader, FrameStreamError, type WorkerEvent } from "../worker/frame-reader.js";
import type { TerminalPayload } from "../worker/output-frames.js";
import type { LaunchedWorker } from "./launch-worker.js";

export interface WorkerCallOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly maxOutputBytes: number;
  readonly onEvent: (event: WorkerEvent) => void;
}

export interface WorkerCallResult {
  /** What the result reports: the applied backend, the per-axis report, the limits. */
  readonly facts: LaunchedFacts;
  readonly terminal: TerminalPayload | undefined;
  /** A protocol violation (the worker was killed at once). */
  readonly streamError: string | undefined;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /** Settles once the worker's tree is reaped (already, unless the call completed). */
  readonly reaped: Promise<unknown>;
  /** Limits the worker's tree ran into, as its launcher reported them once reaped. */
  readonly limitsExceeded: readonly ExceededLimit[];
  /** The worker's own exit status, when it ended before a terminal frame. */
  readonly workerStatus: number | undefined;
}

/** How long a completed call waits for the reap that tells whether a limit was hit. */
const LIMIT_REPORT_WAIT_MS = 1000;

/**
 * The tree's limits once it is reaped, or none if that takes longer than `waitMs` (the
 * worker is then killed outright).
 */
async function reapedLimits(
  worker: LaunchedWorker,
  waitMs: number,
): Promise<{ limits: readonly ExceededLimit[]; status: number | undefined }> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    worker.outcome,
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), waitMs);
    }),
  ]);
  clearTimeout(timer);
  if (settled === undefined) worker.kill();
  if (settled?.kind !== "ran") return { limits: [], status: undefined };
  const { result } = settled;
  return { limits: result.limitsExceeded, status: shellStatus(result.exitCode, result.signal) };
}

/** Reference §5.5: the whole stream is bounded by min(4·cap + 1 MiB, 256 MiB). */
function streamBound(maxOutputBytes: number): number {
  return Math.min(4 * maxOutputBytes + (1 << 20), 256 << 20);
}

/**
 * On completion (the terminal frame) the worker's whole tree is sent SIGKILL at once and
 * the call answers without waiting for the kernel to tear a Node process down (~3 ms):
 * nothing of the tree runs any more, and `reaped` (awaited by the pool's `close()`)
 * settles when it is reaped. Timeouts, cancellation and protocol violations wait for the
 * reap before answering. So does a call that started a program under the launcher:
 * whether the tree ran into its memory or process limit the worker cannot see (the OOM
 * killer's victim may be any process; a refused fork leaves only an error in a program's
 * output), and the launcher reports it once its target, the worker, is dead. There the
 * tree below the launcher is killed instead of the launcher (`end`), so it can.
 */
export async function callWorker(
  worker: LaunchedWorker,
  request: Omit<RequestBody, "nonce">,
  options: WorkerCallOptions,
): Promise<WorkerCallResult> {
  let streamError: string | undefined;
  let timedOut = false;
  let cancelled = false;
  let finished = false;
  // A program ran under the launcher: the answer waits for the launcher's limit report.
  let spawned = false;
  const launched = worker.facts.limits !== undefined;
  let completed: () => void = () => undefined;
  const completion = new Promise<"completed">((resolve) => {
    completed = () => resolve("completed");
  });
  const reader = new FrameReader((event) => {
    options.onEvent(event);
    if (event.kind === "spawn" && event.event.decision === "allowed") spawned = true;
    if (event.kind === "terminal") {
      finished = true;
      if (spawned && launched) worker.end();
      else worker.kill();
      completed();
    }
  }, streamBound(options.maxOutputBytes));
  const channel = worker.channel;
  const closed = new Promise<void>((resolve) => {
    channel.once("close", () => resolve());
  });
  channel.on("data", (chunk: Buffer) => {
    if (streamError !== undefined || finished) return;
    try {
      reader.push(chunk);
    } catch (error) {
      streamError = error instanceof FrameStreamError ? error.message : String(error);
      worker.kill();
    }
  });
  channel.resume();
  channel.end(encodeControl(REQUEST_MAGIC, { ...request, nonce: worker.nonce }));
  const timer = setTimeout(() => {
    if (finished) return;
    timedOut = true;
    worker.kill();
  }, options.timeoutMs);
  const onAbort = () => {
    if (finished) return;
    cancelled = true;
    worker.kill();
  };
  // A host may pass one signal to many calls at once: each listens on a signal of its own
  // that follows the host's (no listener is added to the host's signal, so a burst of
  // calls never trips Node's MaxListenersExceededWarning on it).
  const signal = options.signal === undefined ? undefined : AbortSignal.any([options.signal]);
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  /** `unfinished`: why the stream ended early, a protocol violation unless a limit explains it. */
  const result = async (
    terminal: TerminalPayload | undefined,
    waitMs: number,
    unfinished?: string,
  ) => {
    const reaped = waitMs > 0 ? await reapedLimits(worker, waitMs) : undefined;
    // A worker killed for the tree's memory stops mid-stream: the launcher says why.
    if (unfinished !== undefined && !(reaped && reaped.limits.length > 0)) {
      streamError = unfinished;
    }
    return {
      facts: worker.facts,
      terminal,
      streamError,
      timedOut,
      cancelled,
      reaped: worker.outcome,
      limitsExceeded: reaped?.limits ?? [],
      workerStatus: terminal === undefined ? reaped?.status : undefined,
    };
  };
  try {
    const first = await Promise.race([completion, worker.outcome]);
    if (first === "completed" && streamError === undefined) {
      channel.destroy();
      return await result(reader.terminal, spawned && launched ? LIMIT_REPORT_WAIT_MS : 0);
    }
    // The worker is gone and its tree reaped: whatever it wrote is already buffered.
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 250))]);
    channel.destroy();
    let terminal: TerminalPayload | undefined;
    let unfinished: string | undefined;
    if (finished || (!timedOut && !cancelled && streamError === undefined)) {
      try {
        terminal = reader.end();
      } catch (error) {
        unfinished = (error as Error).message;
      }
    }
    return await result(terminal, LIMIT_REPORT_WAIT_MS, unfinished);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
