import type { Denial } from "@agent-bridle/core";
import type { FileRefusal } from "../paths/file-refusal.js";

/**
 * A write step's outcome: go on with a value, or stop with a refusal — the tool's own
 * (`FileRefusal`) or a judge's denial — before or after an effect (`afterEffect`: a
 * directory or file was already created, so the call is charged).
 */
export type WriteStep<Value> =
  | { readonly ok: true; readonly value: Value }
  | {
      readonly ok: false;
      readonly refusal: FileRefusal | Denial;
      readonly afterEffect: boolean;
    };

export function proceed<Value>(value: Value): WriteStep<Value> {
  return { ok: true, value };
}

export function stop<Value>(refusal: FileRefusal | Denial, afterEffect = false): WriteStep<Value> {
  return { ok: false, refusal, afterEffect };
}

/** The same refusal, marked as coming after an effect when `effect` is true. */
export function stopAfter<Value>(
  step: WriteStep<unknown> & { ok: false },
  effect: boolean,
): WriteStep<Value> {
  return { ok: false, refusal: step.refusal, afterEffect: step.afterEffect || effect };
}
