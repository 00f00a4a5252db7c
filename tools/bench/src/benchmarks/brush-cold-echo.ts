import type { RatioBenchmark } from "../benchmark.js";
import { brushRegistry, spawnPlain } from "./brush-fixture.js";

// A cold call: a fresh worker process (bundled file, authentication, launch frame,
// request, frames back) for `echo hi`, against the floor any Node worker pays.
const cold = brushRegistry(false);

export const brushColdEcho: RatioBenchmark = {
  kind: "ratio",
  name: "brush-cold-echo",
  description: "bash engine `echo hi` in a fresh worker vs spawning `node -e 0`",
  grant: "top()",
  mode: "shell-brush engine, warm worker off, no backend engaged (top grant)",
  target: { maxRatio: 1.5 },
  samples: 20,
  subject: async () => {
    await cold.registry.dispatch("shell", { cmd: "echo hi" }, cold.grant);
  },
  baseline: () => spawnPlain([process.execPath, "-e", "0"]),
  teardown: () => cold.registry.close(),
};
