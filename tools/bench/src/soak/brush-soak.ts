/**
 * Issue 20's soak: `calls` bash-engine calls in a row under a grant that engages the
 * launcher (fs_write only[<temp dir>]), each issued when the previous one answered. It
 * reports the growth of RSS and of the V8 heap (after a full collection at both ends) and
 * what is left once the registry is closed: processes, cgroups, temp directories.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { caveats, defaultPathPolicy, only, Registry } from "@agent-bridle/core";
import { createBrushShellTool } from "@agent-bridle/shell-brush";
import { type Leftovers, leftovers } from "./leftovers.js";

export interface SoakFigures {
  readonly calls: number;
  readonly msPerCall: number;
  readonly rssGrowthMiB: number;
  readonly heapGrowthMiB: number;
  /** Calls whose answer was not the expected one (their first few, for the message). */
  readonly wrong: readonly string[];
  readonly left: Leftovers;
}

const MiB = 1024 * 1024;
/** Calls before the first reading: module loading, the launcher's probe, V8's warm-up. */
const WARM_UP_CALLS = 20;
/** How long the census waits for the kernel to finish tearing down the last calls. */
const SETTLE_MS = 3000;

/** A full collection, where V8 allows one to be asked for. */
function collector(): () => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as (() => void) | undefined;
  return () => gc?.();
}

function memory(gc: () => void) {
  gc();
  gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap: usage.heapUsed };
}

function isEmpty(left: Leftovers): boolean {
  return left.processes.length + left.cgroups.length + left.tempDirs.length === 0;
}

export async function brushSoak(calls: number): Promise<SoakFigures> {
  const gc = collector();
  const directory = mkdtempSync(join(tmpdir(), "bench-soak-"));
  const temp = mkdtempSync(join(tmpdir(), "bench-soak-tmp-"));
  const before = leftovers(temp);
  const tool = createBrushShellTool({
    home: "/nonexistent-home",
    tmpdir: temp,
    baseDir: directory,
  });
  const registry = Registry.builder()
    .tool(tool)
    .pathPolicy(defaultPathPolicy({ platform: "linux", home: "/nonexistent-home" }))
    .build();
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
  const wrong: string[] = [];
  const call = async (i: number) => {
    const envelope = (await registry.dispatch("shell", { cmd: `echo ${i}` }, grant)) as {
      exit_code?: number;
      stdout?: string;
      sandbox_kind?: string;
    };
    const ok =
      envelope.exit_code === 0 &&
      envelope.stdout === `${i}\n` &&
      envelope.sandbox_kind === "landlock";
    if (!ok && wrong.length < 5) wrong.push(JSON.stringify(envelope).slice(0, 300));
  };
  try {
    for (let i = 0; i < WARM_UP_CALLS; i += 1) await call(i);
    const start = memory(gc);
    const started = performance.now();
    for (let i = 0; i < calls; i += 1) await call(i);
    const msPerCall = (performance.now() - started) / calls;
    const end = memory(gc);
    await registry.close();
    let left = leftovers(temp, before);
    for (let waited = 0; waited < SETTLE_MS && !isEmpty(left); waited += 50) {
      await sleep(50);
      left = leftovers(temp, before);
    }
    return {
      calls,
      msPerCall,
      rssGrowthMiB: (end.rss - start.rss) / MiB,
      heapGrowthMiB: (end.heap - start.heap) / MiB,
      wrong,
      left,
    };
  } finally {
    await registry.close();
    rmSync(directory, { recursive: true, force: true });
    rmSync(temp, { recursive: true, force: true });
  }
}
