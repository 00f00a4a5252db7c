// DEV-ONLY. The live process tree under a pid (Linux /proc), for tests that prove nothing
// outlived a call.
import { readdirSync, readFileSync } from "node:fs";

export interface LiveProcess {
  readonly pid: number;
  readonly ppid: number;
  readonly argv: readonly string[];
}

/** Every live process (Linux `/proc`); ones that exit while being read are skipped. */
function liveProcesses(): LiveProcess[] {
  const found: LiveProcess[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      found.push({ pid: Number(entry), ppid, argv });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The live descendants of `root` (default this process), whatever namespace they run in. */
export function descendantsOf(root: number = process.pid): LiveProcess[] {
  const all = liveProcesses();
  const within = new Set([root]);
  const found: LiveProcess[] = [];
  for (let grew = true; grew; ) {
    grew = false;
    for (const candidate of all) {
      if (within.has(candidate.ppid) && !within.has(candidate.pid)) {
        within.add(candidate.pid);
        found.push(candidate);
        grew = true;
      }
    }
  }
  return found;
}

/**
 * The bash engine's workers among `processes`: Node running with the worker flag (the
 * launcher that starts one carries the flag in its argv too, and is not counted).
 */
export function brushWorkers(processes: readonly LiveProcess[]): LiveProcess[] {
  return processes.filter(
    (live) => live.argv[0] === process.execPath && live.argv.includes("--agent-bridle-worker"),
  );
}

/**
 * Whether `live` is a host's spawn server (`bridle-launch --serve`, ADR 0023): it lives as
 * long as the host that started it, by design, and is nobody's call's leftover (what it
 * started is, and is found below it).
 */
export function isSpawnServer(live: LiveProcess): boolean {
  return live.argv[1] === "--serve";
}

/** The processes from `leaf` up to (not including) `root`; empty when `leaf` is not below it. */
export function chainBetween(root: number, leaf: LiveProcess): LiveProcess[] {
  const byPid = new Map(descendantsOf(root).map((live) => [live.pid, live]));
  const chain: LiveProcess[] = [];
  for (let at: LiveProcess | undefined = leaf; at !== undefined; at = byPid.get(at.ppid)) {
    chain.push(at);
    if (at.ppid === root) return chain;
  }
  return [];
}

/** Whether `live` still runs (the same pid with the same argv). */
export function stillRunning(live: LiveProcess): boolean {
  try {
    return readFileSync(`/proc/${live.pid}/cmdline`, "utf8") === live.argv.join("\0");
  } catch {
    return false;
  }
}

export async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      const live = descendantsOf().map((process) => `${process.pid} ${process.argv.join(" ")}`);
      throw new Error(`condition not met in time; descendants:\n${live.join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
