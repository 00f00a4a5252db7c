import type { ShellInvocationId } from "../../src/observer/shell-invocation-id.js";
import type {
  ShellOutputObserverObject,
  ShellOutputStream,
} from "../../src/observer/shell-output-observer.js";

export type ObservedEvent =
  | { readonly id: ShellInvocationId; readonly stream: ShellOutputStream; readonly text: string }
  | { readonly id: ShellInvocationId; readonly finish: true };

const decoder = new TextDecoder();

export function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function output(
  id: ShellInvocationId,
  stream: ShellOutputStream,
  text: string,
): ObservedEvent {
  return { id, stream, text };
}

export function finished(id: ShellInvocationId): ObservedEvent {
  return { id, finish: true };
}

/** Lets every queued microtask and one macrotask turn run. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export interface Deferred {
  readonly promise: Promise<void>;
  resolve(): void;
}

export function deferred(): Deferred {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/**
 * Records every callback. `hold(text)` returns a promise to block on for a chunk with
 * that text (undefined: return synchronously).
 */
export function recordingObserver(
  hold: (text: string) => Promise<void> | undefined = () => undefined,
): {
  observer: ShellOutputObserverObject;
  events: ObservedEvent[];
} {
  const events: ObservedEvent[] = [];
  const observer: ShellOutputObserverObject = {
    onOutput(id, stream, chunk) {
      const text = decoder.decode(chunk);
      events.push({ id, stream, text });
      return hold(text);
    },
    onFinish(id) {
      events.push({ id, finish: true });
    },
  };
  return { observer, events };
}
