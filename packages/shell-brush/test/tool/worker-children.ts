/** Test helper: this process's live children running the bash worker (bundle or snapshot). */
import { readdirSync, readFileSync } from "node:fs";
import { WORKER_ARGV } from "../../src/worker/control-frames.js";

export function workerChildren(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (ppid === process.pid && cmdline.split("\0").includes(WORKER_ARGV[0] as string))
        found.push(Number(entry));
    } catch {}
  }
  return found;
}
