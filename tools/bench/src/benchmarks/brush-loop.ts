import type { RatioBenchmark } from "../benchmark.js";
import { brushRegistry, spawnPlain } from "./brush-fixture.js";

// The interpreter's own speed: an arithmetic loop of 200,000 rounds, run by a ready warm
// worker, against bash running the same script.
const SCRIPT = "i=0; while (( i < 200000 )); do (( i++ )); done";
const warm = brushRegistry(true);

export const brushLoop: RatioBenchmark = {
  kind: "ratio",
  name: "brush-loop",
  description:
    "bash engine `while (( i < 200000 ))` loop on a warm worker vs bash -c of the same script",
  grant: "top()",
  mode: "shell-brush engine, warm worker ready before each call, no backend engaged (top grant)",
  target: { maxRatio: 1 },
  samples: 6,
  beforeSubject: () => warm.tool.warmReady(),
  subject: async () => {
    await warm.registry.dispatch("shell", { cmd: SCRIPT, timeout_secs: 300 }, warm.grant);
  },
  baseline: () => spawnPlain(["/bin/bash", "--norc", "--noprofile", "-c", SCRIPT]),
  teardown: () => warm.registry.close(),
};
