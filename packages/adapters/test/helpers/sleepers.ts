import { descendantsOf, type LiveProcess } from "@agent-bridle-tools/test-kit";

/**
 * A shell command that leaves a process tree running: a background `sleep` and a
 * foreground one, each with an argument no other process has.
 */
export const SLEEPERS_CMD = "sleep 91.25 & sleep 91.5; echo never";

/** The live sleepers of `SLEEPERS_CMD` below this process. */
export function liveSleepers(): LiveProcess[] {
  return descendantsOf().filter(
    (live) => live.argv.includes("91.25") || live.argv.includes("91.5"),
  );
}
