import { ConfigurationError } from "../errors/configuration-error.js";
import { allocateShellInvocationId, type ShellInvocationId } from "./shell-invocation-id.js";
import {
  normalizeOutputObserver,
  type ShellOutputObserver,
  type ShellOutputStream,
} from "./shell-output-observer.js";

/**
 * `open`: accepting chunks. `finished`: `finish()` was called; queued chunks, then
 * `onFinish`, are still delivered. `cancelled`: nothing more will be delivered and
 * `onFinish` will never run (by `cancel()`, or because a callback threw or rejected).
 */
export type OutputSessionState = "open" | "finished" | "cancelled";

export interface OutputSessionOptions {
  /** Per-stream byte budget (the engine's output cap): a non-negative safe integer. */
  readonly maxBytesPerStream: number;
}

/**
 * One invocation's delivery queue to an observer (spec §8.2). The producer side (`emit`,
 * `finish`, `cancel`) never waits for and never runs observer code: each call enqueues or
 * flips state and returns synchronously. Callbacks run later, from a promise (microtask)
 * chain owned by this session, one at a time in enqueue order; a callback's returned
 * promise is awaited before the next, which holds only this session's queue.
 */
export interface OutputSession {
  readonly id: ShellInvocationId;
  readonly state: OutputSessionState;
  /**
   * Enqueue a copy of `chunk` (the producer may reuse its buffer). Empty chunks are
   * ignored; a chunk is cut to the stream's remaining budget and dropped once it is 0.
   * Ignored unless the session is `open`.
   */
  emit(stream: ShellOutputStream, chunk: Uint8Array): void;
  /**
   * Ordinary completion: stop accepting chunks, deliver those already queued, then call
   * `onFinish` exactly once. A no-op unless `open`; afterwards `cancel()` is a no-op too,
   * so an engine may call `cancel()` unconditionally in a `finally`.
   */
  finish(): void;
  /**
   * Timeout, cancellation or abandonment: accept no more chunks, discard queued ones, never
   * call `onFinish`. A callback already running is not interrupted and may still settle
   * later. A no-op once `finish()` was called.
   */
  cancel(): void;
  /**
   * Resolves once nothing is left to deliver: the queue is drained with no callback in
   * flight, or the session is cancelled (a callback in flight at that moment is not
   * awaited). Never rejects. For tests and engines that want quiescence; the producer
   * itself never needs to call it.
   */
  idle(): Promise<void>;
}

type Delivery = { readonly stream: ShellOutputStream; readonly chunk: Uint8Array } | "finish";

/**
 * Opens a delivery session with a fresh invocation id. Open it only for an invocation
 * that has an observer and passed admission (pre-spawn denials notify nobody). Throws
 * `ConfigurationError` for a malformed observer or budget.
 *
 * Queued memory is bounded by the budget: every queued chunk holds at least one budgeted
 * byte, so at most `2 * maxBytesPerStream` bytes in at most as many chunks.
 */
export function createOutputSession(
  observer: ShellOutputObserver,
  options: OutputSessionOptions,
): OutputSession {
  const target = normalizeOutputObserver(observer);
  const budget = streamBudget(options);
  const id = allocateShellInvocationId();
  const remaining: Record<ShellOutputStream, number> = { stdout: budget, stderr: budget };
  let state: OutputSessionState = "open";
  let queue: Delivery[] = [];
  let draining = false;
  let idleWaiters: (() => void)[] = [];

  function settleIdle(): void {
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function stop(): void {
    state = "cancelled";
    queue = [];
    settleIdle();
  }

  async function drain(): Promise<void> {
    while (state !== "cancelled") {
      const next = queue.shift();
      if (next === undefined) break;
      try {
        if (next === "finish") await target.onFinish(id);
        else await target.onOutput(id, next.stream, next.chunk);
      } catch {
        // Contained: a failing observer loses observation of this invocation only. A
        // throwing `onFinish` has nothing left to stop and leaves the state `finished`.
        if (next !== "finish") stop();
      }
    }
    draining = false;
    settleIdle();
  }

  function schedule(): void {
    if (draining) return;
    draining = true;
    // Never run observer code inside the producer's call: start on a microtask.
    void Promise.resolve().then(drain);
  }

  return Object.freeze({
    id,
    get state(): OutputSessionState {
      return state;
    },
    emit(stream: ShellOutputStream, chunk: Uint8Array): void {
      if (state !== "open") return;
      const copy = takeWithinBudget(remaining, stream, chunk);
      if (copy === undefined) return;
      queue.push({ stream, chunk: copy });
      schedule();
    },
    finish(): void {
      if (state !== "open") return;
      state = "finished";
      queue.push("finish");
      schedule();
    },
    cancel(): void {
      if (state === "open") stop();
    },
    idle(): Promise<void> {
      if (!draining || state === "cancelled") return Promise.resolve();
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
      });
    },
  });
}

function streamBudget(options: OutputSessionOptions): number {
  const budget = options.maxBytesPerStream;
  if (!Number.isSafeInteger(budget) || budget < 0) {
    throw new ConfigurationError("maxBytesPerStream must be a non-negative safe integer");
  }
  return budget;
}

/**
 * A copy of as much of `chunk` as `stream`'s remaining budget allows (the producer may
 * reuse its buffer), charged to the budget; undefined when nothing of it is taken.
 */
function takeWithinBudget(
  remaining: Record<ShellOutputStream, number>,
  stream: ShellOutputStream,
  chunk: Uint8Array,
): Uint8Array | undefined {
  const left = remaining[stream];
  const take = Math.min(left, chunk.byteLength);
  // `!(take > 0)` also drops chunks for a stream name outside the type (NaN).
  if (!(take > 0)) return undefined;
  remaining[stream] = left - take;
  const copy = new Uint8Array(take);
  copy.set(chunk.subarray(0, take));
  return copy;
}
