import { constants } from "node:os";
import type { SpawnResult } from "@agent-bridle/sandbox";

/** 124 on timeout (as `timeout(1)`), 128+N for a signal death, else the shell's status. */
export function exitStatusOf(result: SpawnResult): number {
  if (result.timedOut) return 124;
  if (result.exitCode !== null) return result.exitCode;
  const number = result.signal === null ? undefined : constants.signals[result.signal];
  return number === undefined ? -1 : 128 + number;
}
