import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { caveats, defaultPathPolicy, only, Registry } from "@agent-bridle/core";
import { createBrushShellTool } from "@agent-bridle/shell-brush";
import type { MetricBenchmark } from "../benchmark.js";

// Issue 20: a burst of N concurrent bash-engine calls, with a grant that engages the
// launcher (fs_write only[<temp dir>]), against the same burst of plain `bash -c` through
// child_process, both in one run. The reading is the host's event-loop delay maximum
// during the burst; the wall-time ratio of the two bursts is reported in the metric name.

const SCRIPT = "seq 1 20000 | wc -l";

/** A registry with the bash engine and the path policy a host with a home has. */
function brushRegistry(directory: string) {
  const tool = createBrushShellTool({ home: directory, tmpdir: directory, baseDir: directory });
  return Registry.builder()
    .tool(tool)
    .pathPolicy(defaultPathPolicy({ platform: "linux", home: homedir() }))
    .build();
}

/** Throws unless the call ran under the launcher and printed `expected`. */
function checked(expected: string) {
  return (envelope: unknown) => {
    const result = envelope as { exit_code?: number; stdout?: string; sandbox_kind?: string };
    if (
      result.exit_code !== 0 ||
      result.stdout !== expected ||
      result.sandbox_kind !== "landlock"
    ) {
      throw new Error(`unexpected result: ${JSON.stringify(envelope).slice(0, 400)}`);
    }
  };
}

function plainBash(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/bash", ["--norc", "--noprofile", "-c", SCRIPT], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.resume();
    child.stderr.resume();
    child.once("error", reject);
    child.once("close", () => resolve());
  });
}

/** Wall time and event-loop delay maximum (ms) of `burst` run once. */
async function measured(burst: () => Promise<unknown>) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const started = performance.now();
  await burst();
  const wallMs = performance.now() - started;
  histogram.disable();
  return { wallMs, loopMaxMs: histogram.max / 1e6 };
}

function concurrencyBurst(calls: number, limitMs: number): MetricBenchmark {
  return {
    kind: "metric",
    name: `concurrency-${calls}`,
    description: `event-loop delay maximum during ${calls} concurrent bash-engine calls of \`${SCRIPT}\` (wall ratio against the same burst of plain bash -c in the metric name)`,
    grant: "fs_read all, fs_write only[<temp dir>], exec only[seq, wc], net only[]",
    mode: "shell-brush engine with the launcher, warm worker on (the default)",
    measure: async () => {
      const directory = mkdtempSync(join(tmpdir(), "bench-burst-"));
      const registry = brushRegistry(directory);
      const grant = () =>
        registry.mintGrant(
          caveats({
            fs_read: "all",
            fs_write: only([directory]),
            exec: only(["seq", "wc"]),
            net: only([]),
            max_calls: "unlimited",
            valid_for_generation: "all",
          }),
        );
      try {
        // Warm up: module loading, the first worker, the launcher's probe.
        checked("20000\n")(await registry.dispatch("shell", { cmd: SCRIPT }, grant()));
        await plainBash();
        const ours = await measured(() =>
          Promise.all(
            Array.from({ length: calls }, () =>
              registry.dispatch("shell", { cmd: SCRIPT }, grant()),
            ),
          ),
        );
        const plain = await measured(() => Promise.all(Array.from({ length: calls }, plainBash)));
        const ratio = (ours.wallMs / plain.wallMs).toFixed(2);
        return {
          metric: `loop_delay_max (wall ${ours.wallMs.toFixed(0)} ms vs ${plain.wallMs.toFixed(0)} ms: ${ratio}x; plain loop max ${plain.loopMaxMs.toFixed(1)} ms)`,
          value: ours.loopMaxMs,
          unit: "ms",
          limit: limitMs,
        };
      } finally {
        await registry.close();
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}

export const concurrency32 = concurrencyBurst(32, 50);
export const concurrency64 = concurrencyBurst(64, 100);

/** Calls issued as soon as the previous one answers: what a busy agent loop pays. */
export const brushBackToBack: MetricBenchmark = {
  kind: "metric",
  name: "brush-back-to-back",
  description:
    "bash-engine `echo i` calls issued as soon as the previous one answers (ms per call)",
  grant: "fs_read all, fs_write only[<temp dir>], exec only[], net only[]",
  mode: "shell-brush engine with the launcher, warm worker on (the default)",
  measure: async () => {
    const directory = mkdtempSync(join(tmpdir(), "bench-back-to-back-"));
    const registry = brushRegistry(directory);
    const grant = registry.mintGrant(
      caveats({
        fs_read: "all",
        fs_write: only([directory]),
        exec: only([]),
        net: only([]),
        max_calls: "unlimited",
        valid_for_generation: "all",
      }),
    );
    const calls = 100;
    try {
      checked("warm\n")(await registry.dispatch("shell", { cmd: "echo warm" }, grant));
      const started = performance.now();
      for (let i = 0; i < calls; i += 1) {
        checked(`${i}\n`)(await registry.dispatch("shell", { cmd: `echo ${i}` }, grant));
      }
      const perCall = (performance.now() - started) / calls;
      return { metric: "ms_per_call", value: perCall, unit: "ms", limit: 40 };
    } finally {
      await registry.close();
      rmSync(directory, { recursive: true, force: true });
    }
  },
};
