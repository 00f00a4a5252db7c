/**
 * What a run of calls may leave behind, counted from the outside (issue 20's soak): this
 * process's descendants that are bash workers or launchers (not the spawn server), the per-call cgroups the
 * launcher made next to this process's own, and the private temp directories under the
 * engine's temp dir. Linux; elsewhere every count is empty.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface Leftovers {
  readonly processes: readonly string[];
  readonly cgroups: readonly string[];
  readonly tempDirs: readonly string[];
}

function parentOf(pid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** This process's descendants whose command line is a launcher's or a bash worker's. */
function confinedDescendants(): string[] {
  const parents = new Map<string, number | undefined>();
  for (const pid of readdirSync("/proc")) if (/^\d+$/.test(pid)) parents.set(pid, parentOf(pid));
  const below = (pid: string): boolean => {
    for (let at = parents.get(pid), hops = 0; at !== undefined && hops < 64; hops += 1) {
      if (at === process.pid) return true;
      at = parents.get(String(at));
    }
    return false;
  };
  const found: string[] = [];
  for (const pid of parents.keys()) {
    if (!below(pid)) continue;
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      // The host's spawn server outlives calls by design (ADR 0023); what it started does not.
      if (argv[1] === "--serve") continue;
      if (argv.some((arg) => arg.endsWith("bridle-launch") || arg === "--agent-bridle-worker"))
        found.push(`${pid} ${argv.join(" ").trim()}`);
    } catch {}
  }
  return found;
}

/** The cgroup directory this process is in (v2), where the launcher makes its own. */
function ownCgroup(): string | undefined {
  try {
    const line = readFileSync("/proc/self/cgroup", "utf8")
      .split("\n")
      .find((entry) => entry.startsWith("0::"));
    return line === undefined ? undefined : join("/sys/fs/cgroup", line.slice(3));
  } catch {
    return undefined;
  }
}

/** Per-call cgroups of launchers that are no longer running. */
function deadLaunchersCgroups(): string[] {
  const parent = ownCgroup();
  if (parent === undefined) return [];
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  return names.filter((name) => {
    const match = /^bridle-launch\.(\d+)$/.exec(name);
    if (match === null) return false;
    try {
      process.kill(Number(match[1]), 0);
      return false; // a launcher still running (this host runs others too)
    } catch {
      return true;
    }
  });
}

function tempDirsIn(tmpdir: string): string[] {
  try {
    return readdirSync(tmpdir).filter((name) => name.startsWith("bridle-call-"));
  } catch {
    return [];
  }
}

/** The census now; `before` (taken at the start) leaves out cgroups that were already there. */
export function leftovers(tmpdir: string, before?: Leftovers): Leftovers {
  if (process.platform !== "linux") return { processes: [], cgroups: [], tempDirs: [] };
  const earlier = new Set(before?.cgroups ?? []);
  return {
    processes: confinedDescendants(),
    cgroups: deadLaunchersCgroups().filter((name) => !earlier.has(name)),
    tempDirs: tempDirsIn(tmpdir),
  };
}
