/**
 * One call on a ready worker: the request frame (then end of stream: take-once), the
 * result stream validated frame by frame as it arrives, the call's own deadline and
 * cancellation (either kills the worker's whole tree).
 */
import type { SandboxRunFacts } from "@agent-bridle/sandbox";
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
  /** What the result reports: the applied backend and the per-axis report. */
  readonly facts: SandboxRunFacts & { readonly privateTmpDir?: string };
  readonly terminal: TerminalPayload | undefined;
  /** A protocol violation (the worker was killed at once). */
  readonly streamError: string | undefined;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /** Settles once the worker's tree is reaped (already, unless the call completed). */
  readonly reaped: Promise<unknown>;
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
 * reap before answering.
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
  let completed: () => void = () => undefined;
  const completion = new Promise<"completed">((resolve) => {
    completed = () => resolve("completed");
  });
  const reader = new FrameReader((event) => {
    options.onEvent(event);
    if (event.kind === "terminal") {
      finished = true;
      worker.kill();
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
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const result = (terminal: TerminalPayload | undefined) => ({
    facts: worker.facts,
    terminal,
    streamError,
    timedOut,
    cancelled,
    reaped: worker.outcome,
  });
  try {
    const first = await Promise.race([completion, worker.outcome]);
    if (first === "completed" && streamError === undefined) {
      channel.destroy();
      return result(reader.terminal);
    }
    // The worker is gone and its tree reaped: whatever it wrote is already buffered.
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 250))]);
    channel.destroy();
    let terminal: TerminalPayload | undefined;
    if (finished || (!timedOut && !cancelled && streamError === undefined)) {
      try {
        terminal = reader.end();
      } catch (error) {
        streamError = (error as Error).message;
      }
    }
    return result(terminal);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}
