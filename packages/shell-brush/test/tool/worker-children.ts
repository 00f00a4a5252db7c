/**
 * Test helper: the live launches of the bash worker (bundle or snapshot) this process
 * started: its own children, or its spawn server's (ADR 0023), whose argv carries the
 * worker's flag.
 */
import { descendantsOf, isSpawnServer } from "@agent-bridle-tools/test-kit";
import { WORKER_ARGV } from "../../src/worker/control-frames.js";

export function workerChildren(): number[] {
  const below = descendantsOf();
  const spawners = new Set([process.pid]);
  for (const live of below) {
    if (live.ppid === process.pid && isSpawnServer(live)) spawners.add(live.pid);
  }
  return below
    .filter((live) => spawners.has(live.ppid) && live.argv.includes(WORKER_ARGV[0] as string))
    .map((live) => live.pid);
}
