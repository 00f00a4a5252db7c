import { readdirSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";

// Host state a call must never change (kernel-boundary.md §1.4, §4): the hostname, the
// interfaces and routes, the mounts, the keys this user can see and the SysV IPC objects.
// Objects other suites make on purpose are left out by their markers (SysV keys with the
// fixture prefixes, keys described `bridle-…`), so files running side by side (the
// sandbox's boundary suite, this suite's unprivileged run) do not see each other's
// fixtures; the rows check their own planted objects by name.

/** SysV keys of this suite's host fixtures and attacks ("kb"). */
export const KB_IPC_PREFIX = 0x6b620000;
/** SysV keys of packages/sandbox/test/boundary's fixtures ("br"). */
const SANDBOX_IPC_PREFIX = 0x62720000;
const FIXTURE_PREFIXES = [KB_IPC_PREFIX, SANDBOX_IPC_PREFIX];

/** A fresh SysV key with this suite's prefix. */
export function kbIpcKey(): number {
  return (KB_IPC_PREFIX | (1 + Math.floor(Math.random() * 0xfffe))) >>> 0;
}

function readOr(path: string, fallback = ""): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return fallback;
  }
}

/** `/proc/sysvipc/<kind>` rows (key, id, perms, size or count), all keys or fixtures left out. */
export function sysvIpc(kind: "shm" | "msg" | "sem", withFixtures = false): string[] {
  return readOr(`/proc/sysvipc/${kind}`)
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length > 3)
    .filter(
      (cols) => withFixtures || !FIXTURE_PREFIXES.includes((Number(cols[0]) & 0xffff0000) >>> 0),
    )
    .map((cols) => cols.slice(0, 4).join(" "))
    .sort();
}

function interfaces(): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  let names: string[] = [];
  try {
    names = readdirSync("/sys/class/net").sort();
  } catch {}
  for (const name of names) {
    const facts: Record<string, string> = {};
    for (const fact of ["ifindex", "mtu", "flags", "operstate", "address"]) {
      facts[fact] = readOr(`/sys/class/net/${name}/${fact}`).trim();
    }
    out[name] = facts;
  }
  return out;
}

/** The mounts this process sees (point, type, source), less those made on first access. */
function mounts(): string[] {
  const automounted = new Set(["tracefs", "debugfs", "autofs", "binfmt_misc"]);
  return readOr("/proc/self/mountinfo")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const fields = line.split(" ");
      const tail = line.split(" - ")[1]?.split(" ") ?? [];
      return { point: fields[4] ?? "", type: tail[0] ?? "", source: tail[1] ?? "" };
    })
    .filter((mount) => !automounted.has(mount.type))
    .map((mount) => `${mount.point} ${mount.type} ${mount.source}`)
    .sort();
}

/** `/proc/keys` (id, perms, uid, gid, type, description), fixtures described `bridle-…` left out. */
export function keys(withFixtures = false): string[] {
  return readOr("/proc/keys")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [id, , , , perm, uid, gid, type, ...rest] = line.trim().split(/\s+/);
      return [id, perm, uid, gid, type, rest.join(" ").split(":")[0]].join(" ");
    })
    .filter((line) => withFixtures || !/ bridle-/.test(line))
    .sort();
}

export interface HostState {
  readonly hostname: string;
  readonly domainname: string;
  readonly interfaces: Record<string, Record<string, string>>;
  readonly routes: string;
  readonly mounts: readonly string[];
  readonly keys: readonly string[];
  readonly shm: readonly string[];
  readonly msg: readonly string[];
  readonly sem: readonly string[];
}

/** The host state a call must not change, as this process sees it. */
export function hostState(): HostState {
  return {
    hostname: hostname(),
    domainname: readOr("/proc/sys/kernel/domainname").trim(),
    interfaces: interfaces(),
    routes: readOr("/proc/net/route"),
    mounts: mounts(),
    keys: keys(),
    shm: sysvIpc("shm"),
    msg: sysvIpc("msg"),
    sem: sysvIpc("sem"),
  };
}

/** Processes (any user) whose command line contains `needle` (Linux `/proc`). */
export function processesWith(needle: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "latin1").includes(needle))
        found.push(Number(name));
    } catch {}
  }
  return found;
}

/**
 * Processes whose command line holds `token`, after a short grace (the launcher exits
 * once its namespace's last process is reaped; a live survivor stays in the list).
 */
export async function leftovers(token: string): Promise<number[]> {
  for (let attempt = 0; attempt < 25; attempt++) {
    if (processesWith(token).length === 0) return [];
    await sleep(20);
  }
  return processesWith(token);
}
