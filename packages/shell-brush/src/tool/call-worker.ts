/**
 * One call on a ready worker: the request frame (then end of stream: take-once), the
 * result stream validated frame by frame as it arrives, the call's own deadline and
 * cancellation (either kills the worker's whole tree).
 */
import type { SandboxRunOutcome } from "@agent-bridle/sandbox";
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
  readonly outcome: SandboxRunOutcome;
  readonly terminal: TerminalPayload | undefined;
  /** A protocol violation (the worker was killed at once). */
  readonly streamError: string | undefined;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
}

/** Reference §5.5: the whole stream is bounded by min(4·cap + 1 MiB, 256 MiB). */
function streamBound(maxOutputBytes: number): number {
  return Math.min(4 * maxOutputBytes + (1 << 20), 256 << 20);
}

export async function callWorker(
  worker: LaunchedWorker,
  request: Omit<RequestBody, "nonce">,
  options: WorkerCallOptions,
): Promise<WorkerCallResult> {
  let streamError: string | undefined;
  let timedOut = false;
  let cancelled = false;
  let finished = false;
  const reader = new FrameReader((event) => {
    options.onEvent(event);
    // The result is complete: the worker has nothing left to do, and nothing it started
    // may outlive the call. Killing now beats waiting for Node's own exit.
    if (event.kind === "terminal") {
      finished = true;
      worker.kill();
    }
  }, streamBound(options.maxOutputBytes));
  const channel = worker.channel;
  const closed = new Promise<void>((resolve) => {
    channel.once("close", () => resolve());
  });
  channel.on("data", (chunk: Buffer) => {
    if (streamError !== undefined) return;
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
  try {
    const outcome = await worker.outcome;
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
    return { outcome, terminal, streamError, timedOut, cancelled };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}
