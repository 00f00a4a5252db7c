import { ConfigurationError } from "../errors/configuration-error.js";
import type { ShellInvocationId } from "./shell-invocation-id.js";

/** Which pipe a chunk was read from. */
export type ShellOutputStream = "stdout" | "stderr";

/** Both streams, in a fixed order. */
export const SHELL_OUTPUT_STREAMS: readonly ShellOutputStream[] = Object.freeze([
  "stdout",
  "stderr",
]);

/**
 * Receives one chunk of live output: non-empty raw bytes (a chunk may split a UTF-8 code
 * point). The chunk is the observer's own copy. What it returns is awaited and otherwise
 * ignored, so a plain writer fits as it is: `(_id, _stream, chunk) =>
 * process.stdout.write(chunk)` (whose `boolean` is dropped); a promise holds this
 * invocation's queue until it settles.
 */
export type ShellOutputCallback = (
  id: ShellInvocationId,
  stream: ShellOutputStream,
  chunk: Uint8Array,
) => unknown;

/**
 * The object form of an observer: `onFinish` runs once after every prior `onOutput`. Return
 * values are awaited and otherwise ignored, as for `ShellOutputCallback`.
 */
export interface ShellOutputObserverObject {
  onOutput(id: ShellInvocationId, stream: ShellOutputStream, chunk: Uint8Array): unknown;
  onFinish?(id: ShellInvocationId): unknown;
}

/**
 * Presentation-only view of an invocation's output (spec §8). Observation never changes
 * authorization or the result envelope, and the envelope is authoritative where the two
 * differ. A plain function is accepted and treated as `onOutput` with no `onFinish`.
 *
 * Callbacks for one invocation are serialized; different invocations may call the same
 * observer concurrently (interleaved at `await` points), so an observer that keeps state
 * across ids must key it by id. Returning a promise holds only that invocation's queue.
 * A synchronous CPU-bound callback blocks the single JavaScript thread, and with it every
 * producer: that is a limitation of single-threaded JavaScript, not something the session
 * can prevent. Do slow work asynchronously.
 */
export type ShellOutputObserver = ShellOutputObserverObject | ShellOutputCallback;

/** An observer reduced to two functions, bound to the original object. */
export interface NormalizedOutputObserver {
  readonly onOutput: ShellOutputCallback;
  readonly onFinish: (id: ShellInvocationId) => unknown;
}

const noFinish = (): void => {};

/**
 * Accepts either observer form and returns a frozen pair of functions. The methods are
 * read once, here, and called with the observer as `this`. Throws `ConfigurationError`
 * when the value is neither a function nor an object with an `onOutput` method.
 */
export function normalizeOutputObserver(observer: ShellOutputObserver): NormalizedOutputObserver {
  if (typeof observer === "function") {
    return Object.freeze({ onOutput: observer, onFinish: noFinish });
  }
  if (typeof observer !== "object" || observer === null) {
    throw new ConfigurationError("output observer must be a function or an object");
  }
  const onOutput: unknown = observer.onOutput;
  const onFinish: unknown = observer.onFinish;
  if (typeof onOutput !== "function") {
    throw new ConfigurationError("output observer object must have an onOutput method");
  }
  if (onFinish !== undefined && typeof onFinish !== "function") {
    throw new ConfigurationError("output observer onFinish must be a method when present");
  }
  return Object.freeze({
    onOutput: (id: ShellInvocationId, stream: ShellOutputStream, chunk: Uint8Array) =>
      (onOutput as ShellOutputCallback).call(observer, id, stream, chunk),
    onFinish:
      onFinish === undefined
        ? noFinish
        : (id: ShellInvocationId) =>
            (onFinish as (id: ShellInvocationId) => unknown).call(observer, id),
  });
}
