import { type SpawnResult, shellStatus } from "@agent-bridle/sandbox";

/** 124 on timeout (as `timeout(1)`), else the shell's status (128+N for a signal death). */
export function exitStatusOf(result: SpawnResult): number {
  return result.timedOut ? 124 : shellStatus(result.exitCode, result.signal);
}
