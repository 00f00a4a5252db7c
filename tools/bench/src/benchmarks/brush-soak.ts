import type { MetricBenchmark } from "../benchmark.js";
import { brushSoak } from "../soak/brush-soak.js";

/** Heap growth allowed over the soak's 1,000 calls (everything a call holds is let go). */
const HEAP_GROWTH_LIMIT_MIB = 16;

/** Issue 20: 1,000 calls in a row end with bounded memory and nothing left behind. */
export const brushSoak1000: MetricBenchmark = {
  kind: "metric",
  name: "brush-soak",
  description:
    "1,000 bash-engine `echo i` calls in a row: V8 heap growth in MiB (RSS growth, ms per call and what is left after close() in the metric name; anything left fails the run)",
  grant: "fs_read all, fs_write only[<temp dir>], exec only[], net only[]",
  mode: "shell-brush engine with the launcher, warm pool on (the default)",
  measure: async () => {
    const soak = await brushSoak(1000);
    const { processes, cgroups, tempDirs } = soak.left;
    if (soak.wrong.length > 0) throw new Error(`unexpected answers: ${soak.wrong.join("; ")}`);
    if (processes.length + cgroups.length + tempDirs.length > 0) {
      throw new Error(`left behind after close(): ${JSON.stringify(soak.left)}`);
    }
    return {
      metric: `heap_growth (rss ${soak.rssGrowthMiB.toFixed(1)} MiB, ${soak.msPerCall.toFixed(1)} ms per call, left: 0 processes, 0 cgroups, 0 temp dirs)`,
      value: soak.heapGrowthMiB,
      unit: "MiB",
      limit: HEAP_GROWTH_LIMIT_MIB,
    };
  },
};
