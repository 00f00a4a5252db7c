import type { ShellInvocationId } from "./shell-invocation-id.js";
import {
  normalizeOutputObserver,
  type ShellOutputObserver,
  type ShellOutputObserverObject,
  type ShellOutputStream,
} from "./shell-output-observer.js";

/**
 * The observer an engine opens its output session with for one call: the tool's own
 * (attached at construction) and the call's (`InvokeOptions.observer`, from a dispatch
 * option), either, or none. Build it per call: when both are present each receives every
 * chunk in order, and a throwing or rejecting callback stops observation for that observer
 * only (as one observer's failure does for a session, spec §8.2), never the other's.
 * Throws `ConfigurationError` for a malformed observer.
 */
export function joinOutputObservers(
  first: ShellOutputObserver | undefined,
  second: ShellOutputObserver | undefined,
): ShellOutputObserver | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  const targets = [normalizeOutputObserver(first), normalizeOutputObserver(second)];
  const failed = [false, false];
  const each = async (deliver: (target: (typeof targets)[number]) => unknown): Promise<void> => {
    for (const [index, target] of targets.entries()) {
      if (failed[index]) continue;
      try {
        await deliver(target);
      } catch {
        failed[index] = true;
      }
    }
  };
  const joined: ShellOutputObserverObject = {
    onOutput: (id: ShellInvocationId, stream: ShellOutputStream, chunk: Uint8Array) =>
      // Each observer gets its own copy, as the session gives the joined one.
      each((target) => target.onOutput(id, stream, chunk.slice())),
    onFinish: (id: ShellInvocationId) => each((target) => target.onFinish(id)),
  };
  return joined;
}
