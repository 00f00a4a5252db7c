import { type GateRefusal, refusalText as textOf } from "@agent-bridle/core";
import type { IoContext } from "./io-context.js";

/**
 * The GNU error text for a refused gate operation. A policy denial reads like GNU's
 * permission error (`Permission denied`) and is recorded through `onDenial`.
 */
export function refusalText(context: IoContext, refusal: GateRefusal): string {
  if ("denial" in refusal) context.onDenial(refusal.denial);
  return textOf(refusal);
}
