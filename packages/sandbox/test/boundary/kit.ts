// The kernel-boundary suite's kit (kernel-boundary.md §1, §4): the two modes every test
// runs in (root, and nobody through setpriv), fixtures with canaries outside the grant,
// the funnel-shaped policy, the python attacker launched through the real launcher, and
// the "nothing happened" checks (snapshots of the outside tree and of host state, canaries
// absent from every byte, no process left).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  type BigIntStats,
  chmodSync,
  chownSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, expect } from "vitest";
import { renderLauncherPolicy } from "../../src/launcher/policy.js";
import type { LauncherPolicy } from "../../src/launcher/types.js";
import { launcherPath } from "../launcher/harness.js";

export const PYTHON = "/usr/bin/python3";
export const PRELUDE = readFileSync(new URL("./attack-prelude.py", import.meta.url), "utf8");

// ---------------------------------------------------------------------------------------
// Modes

export interface Mode {
  readonly name: "root" | "nobody" | "user";
  readonly uid: number;
  readonly gid: number;
  /** Prefix that runs a program as this mode's user. */
  readonly wrap: readonly string[];
}

const ownUid = process.getuid?.() ?? -1;
const ownGid = process.getgid?.() ?? -1;
export const isRoot = ownUid === 0;

/** Root and nobody when the suite runs as root (CI); the current user otherwise. */
export const modes: readonly Mode[] = isRoot
  ? [
      { name: "root", uid: 0, gid: 0, wrap: [] },
      {
        name: "nobody",
        uid: 65534,
        gid: 65534,
        wrap: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"],
      },
    ]
  : [{ name: "user", uid: ownUid, gid: ownGid, wrap: [] }];

// ---------------------------------------------------------------------------------------
// Fixtures

export function canary(kind = "CANARY"): string {
  return `BRIDLE-${kind}-${randomBytes(12).toString("hex")}`;
}

const made: string[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      cleanup();
    } catch {}
  }
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

/** Runs `fn` after the current test, whatever its outcome. */
export function onCleanup(fn: () => void): void {
  cleanups.push(fn);
}

/**
 * A fresh base directory (0755) under /var/tmp when it exists — outside the view's
 * private /tmp, so the intermediate directories of the view are the read-only root's —
 * removed after the test.
 */
export function baseDir(): string {
  const parent = existsSync("/var/tmp") ? "/var/tmp" : tmpdir();
  const path = mkdtempSync(join(parent, "bridle-boundary-"));
  chmodSync(path, 0o755);
  made.push(path);
  return path;
}

export interface Fixture {
  readonly mode: Mode;
  readonly base: string;
  /** The granted read root: a control file and a target file with an xattr. */
  readonly read: string;
  /** The granted write root. */
  readonly write: string;
  /** Outside both grants: canary files (world-writable, owned by the attacker's user). */
  readonly outside: string;
  /** Readable inside the grant: must show up (positive control). */
  readonly control: string;
  /** Outside the grant: must never show up. */
  readonly canaries: string[];
}

/** Owned by the attacker's user where the mode allows, so only the boundary stops it. */
export function own(mode: Mode, path: string): void {
  if (isRoot) chownSync(path, mode.uid, mode.gid);
}

export function file(mode: Mode, path: string, text: string, perm = 0o666): string {
  writeFileSync(path, text);
  chmodSync(path, perm);
  own(mode, path);
  return path;
}

export function dir(mode: Mode, path: string, perm = 0o777): string {
  mkdirSync(path, { recursive: true });
  chmodSync(path, perm);
  own(mode, path);
  return path;
}

/** Sets an xattr from the host side (node has no xattr API). */
export function setXattr(path: string, name: string, value: string): void {
  hostPython(`import os, sys\nos.setxattr(sys.argv[1], sys.argv[2], sys.argv[3].encode())`, [
    path,
    name,
    value,
  ]);
}

/**
 * Times no read can move (relatime updates atime only when it is not later than mtime
 * and ctime, or a day old): atime an hour ahead, mtime two hours ago. An attack that sets
 * times (even to "now") is then visible.
 */
export function settleTimes(root: string): void {
  const now = Date.now() / 1000;
  const walk = (path: string) => {
    const st = lstatSync(path);
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    if (!st.isSymbolicLink()) utimesSync(path, now + 3600, now - 7200);
  };
  walk(root);
}

export function fixture(mode: Mode): Fixture {
  const base = baseDir();
  const read = dir(mode, join(base, "read"), 0o755);
  const write = dir(mode, join(base, "write"));
  const outside = dir(mode, join(base, "outside"));
  const control = canary("CONTROL");
  const canaries = [canary(), canary(), canary()];
  file(mode, join(read, "visible.txt"), `${control}\n`, 0o644);
  file(mode, join(read, "target.txt"), "read-root target\n");
  setXattr(join(read, "target.txt"), "user.bridle", "original");
  file(mode, join(outside, "secret.txt"), `${canaries[0]}\n`);
  setXattr(join(outside, "secret.txt"), "user.bridle", "original");
  dir(mode, join(outside, "sub"));
  file(mode, join(outside, "sub", "deep.txt"), `${canaries[1]}\n`);
  settleTimes(base);
  return { mode, base, read, write, outside, control, canaries };
}

// ---------------------------------------------------------------------------------------
// The policy the funnel builds for a restricted call

/** The runtime closure of the brief: what python3 needs to start, and public identity files. */
export const RUNTIME_READ: readonly string[] = [
  "/usr",
  "/lib",
  "/lib64",
  "/bin",
  "/etc/ld.so.cache",
  "/etc/passwd",
  "/etc/group",
  "/proc/self",
];
export const DEVICE_SINKS: readonly string[] = ["/dev/null", "/dev/zero", "/dev/full"];

/** fs_read: the read root + runtime; fs_write: the write root; exec all; no network; 64 procs. */
export function funnelPolicy(f: Fixture, extra: Partial<LauncherPolicy> = {}): LauncherPolicy {
  return {
    fsRead: "restricted",
    fsWrite: "restricted",
    exec: "all",
    // As the funnel lists a grant whose fs_read covers its fs_write (the usual one); a
    // write-only root (class 7) is a policy of its own.
    read: [...RUNTIME_READ, f.read, f.write],
    write: [f.write, ...DEVICE_SINKS],
    netDenyAll: true,
    maxProcs: 64,
    ...extra,
  };
}

// ---------------------------------------------------------------------------------------
// The attacker

export type Probe = { readonly ok: unknown } | { readonly errno: number; readonly error: string };

export interface Attack {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly results: Readonly<Record<string, Probe>>;
  /** Host processes still carrying the run's token after it returned. */
  readonly leftover: readonly number[];
}

export interface AttackOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

let launcher = "";
let launcherCopy: string | undefined;
afterAll(() => {
  if (launcherCopy !== undefined) rmSync(launcherCopy, { recursive: true, force: true });
});

/**
 * Locates the built launcher (beforeAll) and runs a private copy of it: the package's
 * binary may be rebuilt by another build while the suite runs. The copy must answer
 * --probe, so a binary caught half-written is retried.
 */
export async function setUpLauncher(): Promise<void> {
  const source = await launcherPath();
  const parent = existsSync("/var/tmp") ? "/var/tmp" : tmpdir();
  launcherCopy = mkdtempSync(join(parent, "bridle-boundary-launcher-"));
  chmodSync(launcherCopy, 0o755);
  const copy = join(launcherCopy, "bridle-launch");
  for (let attempt = 0; ; attempt++) {
    copyFileSync(source, copy);
    chmodSync(copy, 0o755);
    if (spawnSync(copy, ["--probe"]).status === 0) break;
    if (attempt === 20) throw new Error(`${source} does not answer --probe`);
    await sleep(500);
  }
  launcher = copy;
}

export function launcherBinary(): string {
  if (launcher === "") throw new Error("setUpLauncher() was not called");
  return launcher;
}

function parseResults(stdout: Buffer): Record<string, Probe> {
  const text = stdout.toString("latin1");
  const at = text.lastIndexOf("\nBRIDLE-RESULT ");
  if (at < 0) return {};
  const line = text.slice(at + "\nBRIDLE-RESULT ".length).split("\n")[0] ?? "";
  try {
    return JSON.parse(line) as Record<string, Probe>;
  } catch {
    return {};
  }
}

/** Host processes whose command line holds `token` (the launcher's and the target's did). */
export function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`).includes(token)) found.push(Number(name));
    } catch {}
  }
  return found;
}

async function leftoverOf(token: string): Promise<number[]> {
  // The launcher exits after the namespace's last process was reaped; a short grace
  // covers the host's own bookkeeping, never a process that is still running.
  for (let i = 0; i < 10; i++) {
    const found = processesWith(token);
    if (found.length === 0) return [];
    await sleep(20);
  }
  return processesWith(token);
}

function run(argv: readonly string[], policy: string | undefined, options: AttackOptions) {
  const token = canary("TOKEN");
  const [program, ...rest] = [...argv, token];
  const child = spawn(program as string, rest, {
    stdio: ["ignore", "pipe", "pipe", policy === undefined ? "ignore" : "pipe"],
    detached: true,
    env: { PATH: "/usr/bin:/bin", LC_ALL: "C", PYTHONDONTWRITEBYTECODE: "1", ...options.env },
  });
  if (policy !== undefined) {
    const pipe = child.stdio[3] as NodeJS.WritableStream;
    pipe.on("error", () => {}); // a launcher that failed early closed it: its exit tells
    pipe.end(policy);
  }
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
  const timer = setTimeout(() => {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }
  }, options.timeoutMs ?? 15_000);
  return new Promise<Attack>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const out = Buffer.concat(stdout);
      leftoverOf(token).then(
        (leftover) =>
          resolve({
            code,
            signal,
            stdout: out,
            stderr: Buffer.concat(stderr),
            results: parseResults(out),
            leftover,
          }),
        reject,
      );
    });
  });
}

/** The python attacker `body` (with the prelude's helpers) through the real launcher. */
export function attack(
  mode: Mode,
  policy: LauncherPolicy,
  body: string,
  args: unknown = {},
  options: AttackOptions = {},
): Promise<Attack> {
  const argv = [
    ...mode.wrap,
    launcherBinary(),
    "--policy-fd",
    "3",
    "--",
    PYTHON,
    "-c",
    PRELUDE,
    body,
    JSON.stringify(args),
  ];
  return run(argv, renderLauncherPolicy(policy), options);
}

/** The same attacker without any confinement, as the mode's user: the positive control. */
export function unconfined(
  mode: Mode,
  body: string,
  args: unknown = {},
  options: AttackOptions = {},
): Promise<Attack> {
  return run([...mode.wrap, PYTHON, "-c", PRELUDE, body, JSON.stringify(args)], undefined, options);
}

/** A long-lived host process as the mode's user (killed after the test). */
export function hostProcess(
  mode: Mode,
  argv: readonly string[],
  env: Record<string, string>,
): ChildProcess {
  const [program, ...rest] = [...mode.wrap, ...argv];
  const child = spawn(program as string, rest, { stdio: ["ignore", "pipe", "ignore"], env });
  onCleanup(() => child.kill("SIGKILL"));
  return child;
}

/** A short host-side python helper (fixtures, xattrs); throws when it fails. */
export function hostPython(
  source: string,
  args: readonly string[] = [],
  wrap: readonly string[] = [],
): string {
  const [program, ...rest] = [...wrap, PYTHON, "-c", source, ...args];
  const result = spawnSync(program as string, rest, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`host python failed: ${result.stderr}`);
  return result.stdout;
}

/** The errno of each named probe, or "ok". */
export function outcomes(a: Attack, names: readonly string[]): Record<string, number | "ok"> {
  const out: Record<string, number | "ok"> = {};
  for (const name of names) {
    const p = a.results[name];
    out[name] = p === undefined ? -1 : "errno" in p ? p.errno : "ok";
  }
  return out;
}

/** The value a probe returned (undefined when it failed). */
export function value(a: Attack, name: string): unknown {
  const p = a.results[name];
  return p !== undefined && "ok" in p ? p.ok : undefined;
}

/** The attacker ran to its end (not killed by the sandbox set-up or a crash). */
export function expectRan(a: Attack): void {
  expect(a.results.__crash__, a.stderr.toString()).toBeUndefined();
  expect(Object.keys(a.results).length, a.stderr.toString()).toBeGreaterThan(0);
}

/** No byte of stdout or stderr holds any of the canaries. */
export function expectNoCanary(a: Attack, canaries: readonly string[]): void {
  for (const secret of canaries) {
    expect(a.stdout.includes(secret), `stdout holds ${secret}`).toBe(false);
    expect(a.stderr.includes(secret), `stderr holds ${secret}`).toBe(false);
  }
}

/** The attacker ran, leaked nothing and left nothing running. */
export function expectContained(a: Attack, canaries: readonly string[]): void {
  expectRan(a);
  expectNoCanary(a, canaries);
  expect(a.leftover).toEqual([]);
}

// ---------------------------------------------------------------------------------------
// "Nothing happened": the outside tree and host state

export interface Entry {
  readonly type: string;
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly size: bigint;
  readonly ino: bigint;
  readonly nlink: bigint;
  readonly atimeNs: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly content?: string;
  readonly link?: string;
  readonly xattrs?: Readonly<Record<string, string>>;
}

function contentHash(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOATIME);
  } catch {
    fd = openSync(path, constants.O_RDONLY);
  }
  try {
    const hash = createHash("sha256");
    const buffer = Buffer.alloc(1 << 16);
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
    }
    return hash.digest("hex");
  } finally {
    closeSync(fd);
  }
}

const XATTRS = `
import json, os, sys
out = {}
for path in json.loads(sys.stdin.read()):
    try:
        names = os.listxattr(path, follow_symlinks=False)
        out[path] = {n: os.getxattr(path, n, follow_symlinks=False).hex() for n in sorted(names)}
    except OSError as e:
        out[path] = {"!error": str(e.errno)}
print(json.dumps(out))
`;

/**
 * Every entry under `roots` (lstat down to the nanosecond, content hash, link target,
 * xattrs), skipping `exclude` subtrees. Read without moving atime (O_NOATIME).
 */
export function snapshot(
  roots: readonly string[],
  exclude: readonly string[] = [],
): Record<string, Entry> {
  const entries: Record<string, Entry> = {};
  const walk = (path: string) => {
    if (exclude.some((skip) => path === skip || path.startsWith(`${skip}/`))) return;
    let st: BigIntStats;
    try {
      st = lstatSync(path, { bigint: true });
    } catch {
      return;
    }
    const type = st.isDirectory()
      ? "dir"
      : st.isFile()
        ? "file"
        : st.isSymbolicLink()
          ? "link"
          : st.isSocket()
            ? "socket"
            : "other";
    entries[path] = {
      type,
      mode: Number(st.mode),
      uid: Number(st.uid),
      gid: Number(st.gid),
      size: st.size,
      ino: st.ino,
      nlink: st.nlink,
      atimeNs: st.atimeNs,
      mtimeNs: st.mtimeNs,
      ctimeNs: st.ctimeNs,
      ...(type === "file" ? { content: contentHash(path) } : {}),
      ...(type === "link" ? { link: readlinkSync(path) } : {}),
    };
    if (type === "dir") for (const name of readdirSync(path).sort()) walk(join(path, name));
  };
  for (const root of roots) walk(root);
  const paths = Object.keys(entries);
  const result = spawnSync(PYTHON, ["-c", XATTRS], {
    input: JSON.stringify(paths),
    encoding: "utf8",
  });
  const xattrs = JSON.parse(result.stdout) as Record<string, Record<string, string>>;
  for (const path of paths) {
    const entry = entries[path] as Entry;
    entries[path] = { ...entry, xattrs: xattrs[path] ?? {} };
  }
  return entries;
}

/** Fixture SysV keys carry this prefix (0x6272…, "br"), so other files' checks skip them. */
export const FIXTURE_IPC_PREFIX = 0x62720000;

function sysvipc(kind: "shm" | "msg" | "sem", includeFixtures: boolean): string[] {
  let text = "";
  try {
    text = readFileSync(`/proc/sysvipc/${kind}`, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length > 3)
    .filter(
      (cols) => includeFixtures || (Number(cols[0]) & 0xffff0000) >>> 0 !== FIXTURE_IPC_PREFIX,
    )
    .map((cols) => cols.slice(0, 4).join(" ")) // key, id, perms, size or count
    .sort();
}

function interfaces(): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const name of readdirSync("/sys/class/net").sort()) {
    const facts: Record<string, string> = {};
    for (const fact of ["mtu", "flags", "operstate", "address", "ifindex"]) {
      try {
        facts[fact] = readFileSync(`/sys/class/net/${name}/${fact}`, "utf8").trim();
      } catch {}
    }
    out[name] = facts;
  }
  return out;
}

/**
 * The host's mounts (point, type, source), less those the kernel mounts on first access
 * (tracefs, debugfs, autofs, binfmt_misc: any process on the host may trigger them).
 */
function mounts(): string[] {
  const automounted = new Set(["tracefs", "debugfs", "autofs", "binfmt_misc"]);
  return readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const fields = line.split(" ");
      const tail = line.split(" - ")[1]?.split(" ") ?? [];
      return { point: fields[4] ?? "", type: tail[0] ?? "", source: tail[1] ?? "" };
    })
    .filter((m) => !automounted.has(m.type))
    .map((m) => `${m.point} ${m.type} ${m.source}`)
    .sort();
}

export interface HostState {
  readonly hostname: string;
  readonly interfaces: Record<string, Record<string, string>>;
  readonly shm: string[];
  readonly msg: string[];
  readonly sem: string[];
  readonly mounts: string[];
}

/** Host state a call must not change (kernel-boundary.md §1.4), fixtures of other files aside. */
export function hostState(includeFixtures = false): HostState {
  return {
    hostname: hostname(),
    interfaces: interfaces(),
    shm: sysvipc("shm", includeFixtures),
    msg: sysvipc("msg", includeFixtures),
    sem: sysvipc("sem", includeFixtures),
    mounts: mounts(),
  };
}
