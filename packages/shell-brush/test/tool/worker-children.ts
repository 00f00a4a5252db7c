/**
 * Test helper: the live launches of the bash worker (bundle or snapshot) this process
 * started: its own children, or its spawn server's (ADR 0023), whose argv carries the
 * worker's flag.
 */
import { readdirSync, readFileSync } from "node:fs";
import { WORKER_ARGV } from "../../src/worker/control-frames.js";

interface Entry {
  readonly pid: number;
  readonly ppid: number;
  readonly argv: readonly string[];
}

function entries(): Entry[] {
  const found: Entry[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      found.push({ pid: Number(entry), ppid, argv });
    } catch {}
  }
  return found;
}

export function workerChildren(): number[] {
  const all = entries();
  const spawners = new Set([process.pid]);
  for (const entry of all) {
    if (entry.ppid === process.pid && entry.argv[1] === "--serve") spawners.add(entry.pid);
  }
  return all
    .filter((entry) => spawners.has(entry.ppid) && entry.argv.includes(WORKER_ARGV[0] as string))
    .map((entry) => entry.pid);
}
