import type { RatioBenchmark } from "../benchmark.js";
import { brushRegistry, spawnPlain } from "./brush-fixture.js";

// A warm call, timed once the replacement worker is ready: what an agent loop pays per
// call, against bash itself.
const warm = brushRegistry(true);

export const brushWarmEcho: RatioBenchmark = {
  kind: "ratio",
  name: "brush-warm-echo",
  description:
    "bash engine `echo hi` on a ready warm worker vs `bash --norc --noprofile -c 'echo hi'`",
  grant: "top()",
  mode: "shell-brush engine, warm worker ready before each call, no backend engaged (top grant)",
  target: { maxRatio: 1 },
  samples: 20,
  beforeSubject: () => warm.tool.warmReady(),
  subject: async () => {
    await warm.registry.dispatch("shell", { cmd: "echo hi" }, warm.grant);
  },
  baseline: () => spawnPlain(["/bin/bash", "--norc", "--noprofile", "-c", "echo hi"]),
  teardown: () => warm.registry.close(),
};
