import { readdirSync, readFileSync } from "node:fs";

const O_CLOEXEC = 0o2000000;

/**
 * The host's own descriptors (≥ 3) that a child would inherit: those without
 * close-on-exec, typically handed to Node by whatever started it. Node cannot clear them
 * before `exec`, so the funnel covers each with `/dev/null` in the child (the launcher
 * then closes them). Linux only (`/proc/self/fdinfo`); empty elsewhere.
 */
export function inheritableHostDescriptors(): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc/self/fdinfo");
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    const fd = Number.parseInt(name, 10);
    if (!(fd >= 3)) continue;
    try {
      const info = readFileSync(`/proc/self/fdinfo/${name}`, "latin1");
      const match = /^flags:\s*([0-7]+)$/m.exec(info);
      if (match && (Number.parseInt(match[1] as string, 8) & O_CLOEXEC) === 0) found.push(fd);
    } catch {
      // Closed while we looked (readdir's own descriptor among them).
    }
  }
  return found.sort((a, b) => a - b);
}
