import { homedir, tmpdir } from "node:os";
import { defaultPathPolicy, Registry, top } from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { createShellTool } from "@agent-bridle/shell-safe";
import type { MetricBenchmark } from "../benchmark.js";

// Host memory growth while a child floods 1 GiB to stdout under the default 1 MiB cap:
// the capture keeps the cap and drains the rest, so resident memory must stay flat.
const GIB = 1024 * 1024 * 1024;
const MIB = 1024 * 1024;

export const shellSafeFloodMemory: MetricBenchmark = {
  kind: "metric",
  name: "shell-safe-flood-memory",
  description: "peak RSS growth of the host during a 1 GiB stdout flood with a 1 MiB cap",
  grant: "top()",
  mode: "shell-safe engine, `none` backend, `head -c 1GiB /dev/zero`",
  measure: async () => {
    const home = tmpdir();
    const shell = createShellTool({ home, tmpdir: home, baseDir: home, backend: NONE_BACKEND });
    const registry = Registry.builder()
      .tool(shell)
      .pathPolicy(defaultPathPolicy({ platform: "linux", home: homedir() }))
      .build();
    const grant = registry.mintGrant(top());
    // Warm up once so module loading and JIT are not counted as growth.
    await registry.dispatch("shell", { cmd: "head -c 1048576 /dev/zero" }, grant);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    try {
      const envelope = (await registry.dispatch(
        "shell",
        { cmd: `head -c ${GIB} /dev/zero` },
        grant,
      )) as {
        stdout_truncated?: boolean;
      };
      if (envelope.stdout_truncated !== true)
        throw new Error("shell-safe-flood-memory: no truncation");
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    return { metric: "rss_growth", value: (peak - before) / MIB, unit: "MiB", limit: 64 };
  },
};
