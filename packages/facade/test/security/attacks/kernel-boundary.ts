import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_RESOURCE_LIMITS } from "@agent-bridle/sandbox";
import { expect } from "vitest";
import type { Attack, Outcome } from "../helpers/attack.js";
import type { EngineName } from "../helpers/engines.js";
import type { Fixture } from "../helpers/fixture.js";
import { kbIpcKey, keys, sysvIpc } from "../helpers/host-state.js";

// Issue 14's twelve classes (kernel-boundary.md §1) against each engine, with the
// attacker the review used: a granted `python3`, which makes every system call
// available. Each row writes one python script into $A (the toolkit of
// kernel-boundary.py plus the row's body), runs it as `python3 $A/kbN.py`, and is judged
// `deep` (helpers/judge.ts): no canary in any byte of the envelope, no marker, nothing
// outside the grant changed down to mode, owner, times and xattrs, host state unchanged,
// no process left. On top, every attack probe ("x:…") must have FAILED and every
// positive control ("ctl:…", the same operation inside the grant) must have worked, so a
// row cannot pass because everything is broken. "info:…" probes are facts a check reads.
// The same rows run as root and, from the test command, as nobody (README).

const PYTHON = "/usr/bin/python3";
const PRELUDE = readFileSync(
  fileURLToPath(new URL("./kernel-boundary.py", import.meta.url)),
  "utf8",
);
/**
 * A world-readable system file outside the fixture, what fs_read "all" must let a program
 * read. Not this repository's files: a checkout may lie in the host's /tmp, which the
 * call's private /tmp replaces.
 */
const PUBLIC_PATH = "/usr/lib/os-release";
const PUBLIC = readFileSync(PUBLIC_PATH, "utf8");
const isRoot = process.getuid?.() === 0;
const S_IFSOCK = 0o140000;

type Probe = { readonly ok: unknown } | { readonly errno: number; readonly error: string };
type Probes = Readonly<Record<string, Probe>>;

/** Writes `$A/<name>.py`: the arguments, the body, then the toolkit that runs the body. */
function script(f: Fixture, name: string, body: string, args: Record<string, unknown> = {}) {
  const all = { A: f.A, O: f.O, B: f.B, WS: f.WS, ...args };
  writeFileSync(
    join(f.A, `${name}.py`),
    `import json\nARGS = json.loads(${JSON.stringify(JSON.stringify(all))})\nBODY = ${JSON.stringify(body)}\n${PRELUDE}`,
  );
}

/** The call that runs a row's script (its path names the fixture: a survivor is found). */
const run = (name: string, extra = "") => ({ cmd: `python3 $A/${name}.py${extra}` });

/** A short host-side python helper, as the test's own user; throws when it fails. */
function hostPython(source: string, input = ""): string {
  const result = spawnSync(PYTHON, ["-c", source], { input, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`host python failed: ${result.stderr}`);
  return result.stdout;
}

function probesOf(outcome: Outcome | undefined): Probes {
  const stdout = String(outcome?.response.stdout ?? "");
  const at = stdout.lastIndexOf("\nKB-RESULT ");
  if (at < 0) return {};
  try {
    return JSON.parse(stdout.slice(at + 11).split("\n")[0] ?? "") as Probes;
  } catch {
    return {};
  }
}

const failed = (probe: Probe | undefined) => probe !== undefined && "errno" in probe;

/**
 * The script ran to its end, every attack probe failed and every control worked;
 * returns the probes. The message names each probe that broke the rule, with its value.
 */
function expectContained(outcome: Outcome | undefined, label: string): Probes {
  const probes = probesOf(outcome);
  const context = `${label}: ${JSON.stringify(outcome?.response).slice(0, 4000)}`;
  expect(Object.keys(probes).length, `${context}\n(the script did not report)`).toBeGreaterThan(0);
  expect(probes.__crash__, context).toBeUndefined();
  const broken = Object.entries(probes).filter(
    ([name, probe]) =>
      (name.startsWith("x:") && !failed(probe)) || (name.startsWith("ctl:") && failed(probe)),
  );
  expect(
    Object.fromEntries(broken),
    `${label}: attacks that worked (x:) and controls that failed (ctl:)`,
  ).toEqual({});
  return probes;
}

/** The value an `ok` probe returned. */
function value(probes: Probes, name: string): unknown {
  const probe = probes[name];
  return probe !== undefined && "ok" in probe ? probe.ok : undefined;
}

/** Per-fixture host resources a setup made (processes, descriptors, objects to remove). */
interface Held {
  processes: ChildProcess[];
  fds: number[];
  cleanups: (() => void)[];
  /** Lines the host helper printed after READY (a client it saw). */
  events: string[];
  /** Strings that must appear in no output (the shadow files' lines). */
  lines: string[];
  facts: Record<string, string>;
}
const held = new WeakMap<Fixture, Held>();
function hold(f: Fixture): Held {
  let entry = held.get(f);
  if (!entry) {
    entry = { processes: [], fds: [], cleanups: [], events: [], lines: [], facts: {} };
    held.set(f, entry);
  }
  return entry;
}
function release(f: Fixture): void {
  const entry = held.get(f);
  if (!entry) return;
  for (const child of entry.processes) child.kill("SIGKILL");
  for (const fd of entry.fds) closeSync(fd);
  for (const cleanup of entry.cleanups.reverse()) {
    try {
      cleanup();
    } catch {}
  }
}

/** Waits until `child` printed a line `READY…` (its listener is up); returns that line. */
function ready(child: ChildProcess, f: Fixture): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error("host helper did not start")), 10_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      const lines = text.split("\n");
      text = lines.pop() ?? "";
      for (const line of lines) {
        if (line.startsWith("READY")) {
          clearTimeout(timer);
          resolve(line);
        } else hold(f).events.push(line);
      }
    });
    child.on("exit", (code) => reject(new Error(`host helper exited ${code}`)));
  });
}

/** Times no read can move, and an xattr: a change by the attack is then visible. */
function settle(path: string, xattr = true): void {
  const now = Date.now() / 1000;
  utimesSync(path, now + 3600, now - 7200);
  if (xattr) {
    hostPython(
      "import os, sys\nos.setxattr(sys.stdin.read(), 'user.kb', b'original', follow_symlinks=False)",
      path,
    );
  }
}

const ONLY_BASH = {
  safe: "the worker's channel is the bash engine's (the safe engine spawns the program itself)",
  host: "the worker's channel is the bash engine's (host bash has no channel to its parent)",
} satisfies Partial<Record<EngineName, string>>;

const SLEEPER_SECONDS = "600";
/** `python3 -c PDEATHSIG_EXEC prog args…`: exec prog with SIGKILL as its parent-death signal. */
const PDEATHSIG_EXEC =
  "import ctypes, os, sys\nctypes.CDLL(None).prctl(1, 9)\nos.execv(sys.argv[1], sys.argv[1:])";

// --- KB1: /proc of other processes ------------------------------------------------------

const KB1 = `
import ctypes
class iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]

def vm_read(pid, address, size=65536):
    buf = ctypes.create_string_buffer(size)
    local = iovec(ctypes.cast(buf, ctypes.c_void_p), size)
    remote = iovec(address, size)
    n = c("process_vm_readv", pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0,
          restype=ctypes.c_ssize_t)
    return buf.raw[:n]

def pidfd_take(pid, fd):
    pidfd = sc("pidfd_open", pid, 0)
    try:
        taken = sc("pidfd_getfd", pidfd, fd, 0)
        try:
            return os.read(taken, 4096)
        finally:
            os.close(taken)
    finally:
        os.close(pidfd)

O = ARGS["O"]
for label, pid in (("host", ARGS["hostPid"]), ("sleeper", ARGS["sleeperPid"])):
    base = "/proc/%d/" % pid
    for leaf in ("environ", "cmdline", "status", "fd/3", "cwd/secret.txt",
                 "root" + O + "/secret.txt", "task/%d/environ" % pid, "maps"):
        probe("x:%s-%s" % (label, leaf.split("/")[0]), lambda leaf=leaf: read(base + leaf))
    probe("x:%s-fd-list" % label, lambda: os.listdir(base + "fd"))
    probe("x:%s-kill0" % label, lambda pid=pid: os.kill(pid, 0))
    probe("x:%s-pidfd-getfd" % label, lambda pid=pid: pidfd_take(pid, 3))
    probe("x:%s-ptrace-seize" % label, lambda pid=pid: sc("ptrace", 0x4206, pid, 0, 0))
probe("x:sleeper-mem", lambda: read("/proc/%d/mem" % ARGS["sleeperPid"], 65536, ARGS["stackTop"] - 65536))
probe("x:sleeper-vm-readv", lambda: vm_read(ARGS["sleeperPid"], ARGS["stackTop"] - 65536))

def scan():
    found = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            for leaf in ("environ", "cmdline"):
                try:
                    found[name + "/" + leaf] = read("/proc/%s/%s" % (name, leaf))
                except OSError:
                    pass
    return found
probe("info:scan", scan)
probe("ctl:own-env", lambda: dict(os.environ))
probe("ctl:read-granted", lambda: read(ARGS["A"] + "/ok.txt"))
`;

const KB1_SELF = `
probe("ctl:self-environ", lambda: read("/proc/self/environ"))
probe("ctl:self-status", lambda: read("/proc/self/status"))
probe("ctl:self-fd", lambda: os.listdir("/proc/self/fd"))
probe("ctl:self-maps", lambda: len(read("/proc/self/maps")))
`;

/** The stack's end in `pid`'s address space (the environment strings sit just below it). */
function stackTop(pid: number): number {
  const line = readFileSync(`/proc/${pid}/maps`, "utf8")
    .split("\n")
    .find((entry) => entry.endsWith("[stack]"));
  return Number.parseInt(line?.split(/[- ]/)[1] ?? "0", 16);
}

async function startSleeper(f: Fixture): Promise<ChildProcess> {
  const fd = openSync(join(f.O, "secret.txt"), "r");
  hold(f).fds.push(fd);
  // sleep, dying with this process (PR_SET_PDEATHSIG survives the exec) should a setup fail
  const child = spawn(PYTHON, ["-c", PDEATHSIG_EXEC, "/bin/sleep", SLEEPER_SECONDS], {
    cwd: f.O,
    env: { PATH: "/usr/bin:/bin", KB_SECRET: "CANARY-ENV-sleeper" },
    stdio: ["ignore", "ignore", "ignore", fd],
  });
  hold(f).processes.push(child);
  // until it runs sleep (its maps are sleep's, its stack holds the canary)
  for (let attempt = 0; attempt < 400; attempt++) {
    try {
      if (readlinkSync(`/proc/${child.pid}/exe`).endsWith("/sleep")) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return child;
}

// --- KB2: the worker's channel ----------------------------------------------------------

const KB2 = String.raw`
import signal, socket, stat, struct

def frame(kind, seq, payload):
    return b"ABES" + bytes([1, kind]) + struct.pack("<QI", seq, len(payload)) + payload

FORGED = b"".join(frame(2, s, b"FORGED-STDOUT\n") for s in range(0, 6))
FORGED += frame(4, 6, json.dumps({"kind": "open", "target": "/forged", "reason": "forged",
                                  "code": "FS_OUTSIDE_ALLOWED"}).encode())
FORGED += frame(5, 7, json.dumps({"exit_code": 0, "denials": [], "error": None,
                                  "dropped": {"stdout_bytes": 0, "stderr_bytes": 0,
                                              "events": 0}}).encode())

# Descriptors this program was given beyond 0-2 (the channel must not be among them);
# forged frames into each, and a read of whatever is waiting there.
own = []
for fd in range(3, 256):
    try:
        own.append([fd, stat.S_IFMT(os.fstat(fd).st_mode)])
    except OSError:
        pass
results["info:own-fds"] = {"ok": own}
for fd, _ in own:
    probe("info:own-fd%d-write" % fd, lambda fd=fd: os.write(fd, FORGED))
    probe("info:own-fd%d-read" % fd, lambda fd=fd: (os.set_blocking(fd, False), os.read(fd, 65536))[1])

def start_stack(pid):
    return int(read("/proc/%d/stat" % pid).decode().rsplit(")", 1)[1].split()[25])

def take_and_forge(pid, fd):
    pidfd = sc("pidfd_open", pid, 0)
    try:
        taken = sc("pidfd_getfd", pidfd, fd, 0)
        try:
            return os.write(taken, FORGED)
        finally:
            os.close(taken)
    finally:
        os.close(pidfd)

def open_and_forge(path):
    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    try:
        os.write(fd, FORGED)
        return os.read(fd, 4096)
    finally:
        os.close(fd)

class iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]

def vm_read(pid):
    address = start_stack(pid) - 4096
    buf = ctypes.create_string_buffer(4096)
    local = iovec(ctypes.cast(buf, ctypes.c_void_p), 4096)
    remote = iovec(address, 4096)
    return c("process_vm_readv", pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0,
             restype=ctypes.c_ssize_t)

# The worker is the parent. Pid 1 is a target only when it is the worker too (the call's
# own PID namespace): where a layer were missing, it would be the host's init.
def is_worker(pid):
    try:
        return b"--agent-bridle-worker" in read("/proc/%d/cmdline" % pid)
    except OSError:
        return False
targets = [("ppid", os.getppid())]
if os.getppid() != 1 and is_worker(1):
    targets.append(("pid1", 1))
for label, pid in targets:
    base = "/proc/%d/" % pid
    probe("x:%s-environ" % label, lambda: read(base + "environ"))
    probe("x:%s-maps" % label, lambda: read(base + "maps"))
    probe("x:%s-mem-open" % label, lambda: os.close(os.open(base + "mem", os.O_RDWR)))
    probe("x:%s-mem-read" % label, lambda: read(base + "mem", 4096, start_stack(pid) - 4096))
    for n in range(0, 32):
        probe("x:%s-fd%d-open" % (label, n), lambda n=n: open_and_forge(base + "fd/%d" % n))
        probe("x:%s-fd%d-read" % (label, n), lambda n=n: read(base + "fd/%d" % n, 4096))
        probe("x:%s-fd%d-readlink" % (label, n), lambda n=n: os.readlink(base + "fd/%d" % n))
        probe("x:%s-pidfd-getfd%d" % (label, n), lambda n=n, pid=pid: take_and_forge(pid, n))
    probe("x:%s-vm-readv" % label, lambda pid=pid: vm_read(pid))
    probe("x:%s-ptrace-seize" % label, lambda pid=pid: sc("ptrace", 0x4206, pid, 0, 0))
    attached = probe("x:%s-ptrace-attach" % label, lambda pid=pid: sc("ptrace", 16, pid, 0, 0))
    if "ok" in attached:
        probe("info:%s-ptrace-detach" % label, lambda pid=pid: sc("ptrace", 17, pid, 0, 0))
    probe("info:%s-signal0" % label, lambda pid=pid: os.kill(pid, 0))
    for sig in ("SIGUSR1", "SIGUSR2", "SIGHUP", "SIGINT", "SIGTERM", "SIGSTOP"):
        probe("x:%s-%s" % (label, sig), lambda pid=pid, sig=sig: os.kill(pid, getattr(signal, sig)))
    probe("info:%s-SIGCONT" % label, lambda pid=pid: os.kill(pid, signal.SIGCONT))

# SIGUSR1 opens node's inspector, were it delivered: its port must not answer either.
def inspector():
    s = socket.create_connection(("127.0.0.1", 9229), timeout=1)
    s.close()
probe("x:inspector", inspector)
print("py-honest")
sys.exit(3)
`;

// --- KB3: metadata outside fs_write -----------------------------------------------------

const KB3 = `
A, O, R = ARGS["A"], ARGS["O"], ARGS["R"]
me = (os.getuid(), os.getgid())
other = (65534, 65534) if me[0] == 0 else (0, 0)

def via_fd(path, directory, op):
    fd = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if directory else 0))
    try:
        return op(fd)
    finally:
        os.close(fd)

def attack(label, path, directory):
    probe("x:%s-chmod" % label, lambda: os.chmod(path, 0o777))
    probe("x:%s-chown-self" % label, lambda: os.chown(path, *me))
    probe("x:%s-chown-other" % label, lambda: os.chown(path, *other))
    probe("x:%s-lchown" % label, lambda: os.lchown(path, *me))
    probe("x:%s-utime" % label, lambda: os.utime(path, (1, 1)))
    probe("x:%s-utime-now" % label, lambda: os.utime(path))
    probe("x:%s-setxattr" % label, lambda: os.setxattr(path, "user.kb", b"pwned"))
    probe("x:%s-newxattr" % label, lambda: os.setxattr(path, "user.kb2", b"pwned"))
    probe("x:%s-removexattr" % label, lambda: os.removexattr(path, "user.kb"))
    probe("x:%s-trusted-xattr" % label, lambda: os.setxattr(path, "trusted.kb", b"pwned"))
    probe("x:%s-fchmod" % label, lambda: via_fd(path, directory, lambda fd: os.chmod(fd, 0o777)))
    probe("x:%s-fchown" % label, lambda: via_fd(path, directory, lambda fd: os.chown(fd, *me)))
    probe("x:%s-futime" % label, lambda: via_fd(path, directory, lambda fd: os.utime(fd, (2, 2))))
    probe("x:%s-fsetxattr" % label,
          lambda: via_fd(path, directory, lambda fd: os.setxattr(fd, "user.kb", b"pwned")))

attack("O-file", O + "/meta.txt", False)
attack("O-dir", O, True)
attack("R-file", R + "/target.txt", False)
attack("R-dir", R, True)
probe("x:R-link-into-A", lambda: os.link(R + "/target.txt", A + "/hard.txt"))
probe("x:O-link-into-A", lambda: os.link(O + "/meta.txt", A + "/hard2.txt"))
probe("x:R-symlink", lambda: os.symlink("x", R + "/sym"))
probe("x:R-mkdir", lambda: os.mkdir(R + "/d"))
probe("x:R-truncate", lambda: os.truncate(R + "/target.txt", 0))
probe("info:R-read", lambda: read(R + "/target.txt"))
probe("x:R-rename", lambda: os.rename(R + "/target.txt", R + "/renamed.txt"))

M = A + "/meta.txt"
probe("ctl:chmod", lambda: os.chmod(M, 0o640))
probe("ctl:chown-self", lambda: os.chown(M, *me))
probe("ctl:utime", lambda: os.utime(M, (1000, 1000)))
probe("ctl:setxattr", lambda: os.setxattr(M, "user.kb", b"mine"))
probe("ctl:fchmod", lambda: via_fd(M, False, lambda fd: os.chmod(fd, 0o640)))
`;

// --- KB4: UNIX sockets outside the grants -----------------------------------------------

const HOST_LISTENER = String.raw`
import ctypes, json, os, select, socket, sys
ctypes.CDLL(None).prctl(1, 9)  # PR_SET_PDEATHSIG: SIGKILL when the test process dies
cfg = json.load(sys.stdin)
stream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
stream.bind(cfg["path"])
os.chmod(cfg["path"], 0o777)
stream.listen(16)
abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
abstract.bind("\0" + cfg["abstract"])
abstract.listen(16)
dgram = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
dgram.bind(cfg["dgram"])
os.chmod(cfg["dgram"], 0o777)
print("READY", flush=True)
while True:
    for s in select.select([stream, abstract, dgram], [], [])[0]:
        if s is dgram:
            s.recv(4096)
            print("DGRAM", flush=True)
            continue
        conn, _ = s.accept()
        print("ACCEPT", flush=True)
        try:
            conn.sendall(b"CANARY-OUT-unix-listener\n")
        except OSError:
            pass
        conn.close()
`;

const KB4 = String.raw`
import socket
A = ARGS["A"]

def talk(address, kind=socket.SOCK_STREAM):
    s = socket.socket(socket.AF_UNIX, kind)
    s.settimeout(2)
    try:
        if kind == socket.SOCK_DGRAM:
            return s.sendto(b"hello", address)
        s.connect(address)
        return s.recv(256)
    finally:
        s.close()

probe("info:socket-unix", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close())
probe("x:path", lambda: talk(ARGS["path"]))
probe("x:link-in-A", lambda: talk(A + "/sock-link"))
probe("x:abstract", lambda: talk("\0" + ARGS["abstract"]))
probe("x:dgram-path", lambda: talk(ARGS["dgram"], socket.SOCK_DGRAM))
probe("x:proc-root", lambda: talk("/proc/%d/root%s" % (ARGS["listenerPid"], ARGS["path"])))

def pair():
    a, b = socket.socketpair()
    a.sendall(b"pair-ok")
    return b.recv(16)
probe("ctl:socketpair", pair)

if ARGS.get("ownListener"):
    def own():
        path = A + "/own.sock"
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(1)
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(path)
        conn, _ = server.accept()
        conn.sendall(b"own-ok")
        return client.recv(16)
    probe("ctl:own-listener", own)
`;

async function startListener(f: Fixture): Promise<Record<string, unknown>> {
  const path = join(f.O, "kb.sock");
  const dgram = join(f.O, "kb.dgram");
  const abstract = `bridle-kb-${Math.random().toString(16).slice(2)}`;
  // the configuration on stdin: no fixture path in its command line (the leftover check)
  const child = spawn(PYTHON, ["-c", HOST_LISTENER], { stdio: ["pipe", "pipe", "inherit"] });
  hold(f).processes.push(child);
  child.stdin?.end(JSON.stringify({ path, dgram, abstract }));
  await ready(child, f);
  symlinkSync(path, join(f.A, "sock-link"));
  return { path, dgram, abstract, listenerPid: child.pid };
}

const KB4_CHECK = (outcomes: readonly Outcome[], f: Fixture, label: string) => {
  expectContained(outcomes[0], label);
  expect(hold(f).events, `${label}: the host listener saw a client`).toEqual([]);
};

// --- KB5: root-only host state ----------------------------------------------------------

const HOST_SHM = `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
key, data = sys.stdin.read().split(" ", 1)
shmid = libc.shmget(int(key), 4096, 0o1000 | 0o600)
if shmid < 0:
    raise SystemExit("shmget: errno %d" % ctypes.get_errno())
addr = libc.shmat(shmid, None, 0)
ctypes.memmove(addr, data.encode(), len(data))
libc.shmdt(ctypes.c_void_p(addr))
print(shmid)
`;
const HOST_UNSHM = `import ctypes, sys\nctypes.CDLL(None).shmctl(int(sys.stdin.read()), 0, None)`;
const HOST_KEY = `
import ctypes, platform, sys
libc = ctypes.CDLL(None, use_errno=True)
nr = {"x86_64": 248, "aarch64": 217}[platform.machine()]
desc, payload = sys.stdin.read().split(" ", 1)
key = libc.syscall(ctypes.c_long(nr), b"user", desc.encode(), payload.encode(),
                   ctypes.c_long(len(payload)), ctypes.c_long(-4))
if key < 0:
    raise SystemExit("add_key: errno %d" % ctypes.get_errno())
print(key)
`;
const HOST_UNKEY = `
import ctypes, platform, sys
nr = {"x86_64": 250, "aarch64": 219}[platform.machine()]
ctypes.CDLL(None).syscall(ctypes.c_long(nr), ctypes.c_long(21), ctypes.c_long(int(sys.stdin.read())))
`;

const KB5 = String.raw`
import fcntl, socket, stat, struct
A = ARGS["A"]
probe("x:sethostname", lambda: socket.sethostname("kb-pwned"))
probe("x:setdomainname", lambda: c("setdomainname", b"kb-pwned", 8))
x, _ = socket.socketpair()
probe("x:lo-mtu", lambda: fcntl.ioctl(x, 0x8922, struct.pack("16si20x", b"lo", 1280)))  # SIOCSIFMTU
probe("x:netlink-route", lambda: socket.socket(16, socket.SOCK_RAW, 0).close())
probe("x:packet", lambda: socket.socket(17, socket.SOCK_RAW, 0).close())
probe("x:sys-class-net", lambda: os.listdir("/sys/class/net"))

libc.shmat.restype = ctypes.c_void_p
def shm_read(shmid):
    addr = c("shmat", shmid, None, 0o10000, restype=ctypes.c_void_p)  # SHM_RDONLY
    return ctypes.string_at(addr, 64).rstrip(b"\0")
def shm_scan():
    found = []
    buf = ctypes.create_string_buffer(512)
    for index in range(0, 1024):
        shmid = libc.shmctl(index, 13, buf)  # SHM_STAT
        if shmid >= 0:
            found.append(shm_read(shmid))
    return found
probe("x:shm-by-key", lambda: shm_read(c("shmget", ARGS["shmKey"], 0, 0)))
probe("x:shm-by-id", lambda: shm_read(ARGS["shmId"]))
probe("info:shm-scan", shm_scan)

def key_read(key):
    buf = ctypes.create_string_buffer(256)
    n = sc("keyctl", 11, key, buf, 256)  # KEYCTL_READ
    return buf.raw[:n]
probe("x:key-search", lambda: key_read(sc("keyctl", 10, -4, b"user", ARGS["keyDesc"].encode(), 0)))
probe("x:key-by-id", lambda: key_read(ARGS["keyId"]))
probe("x:add-key-user", lambda: sc("add_key", b"user", ARGS["plant"].encode(), b"x", 1, -4))
probe("x:add-key-session", lambda: sc("add_key", b"user", ARGS["plant"].encode(), b"x", 1, -3))
probe("info:proc-keys", lambda: read("/proc/keys"))
probe("x:mknod-chr", lambda: os.mknod(A + "/kbnull", 0o666 | stat.S_IFCHR, os.makedev(1, 3)))
probe("x:mknod-blk", lambda: os.mknod(A + "/kbdisk", 0o666 | stat.S_IFBLK, os.makedev(7, 0)))

def klog():
    buf = ctypes.create_string_buffer(1 << 20)
    n = sc("syslog", 3, buf, 1 << 20)  # SYSLOG_ACTION_READ_ALL
    return [l for l in buf.raw[:n].split(b"\n") if b"bridle-kb" in l] or n
def kmsg():
    fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
    lines = []
    try:
        while True:
            try:
                record = os.read(fd, 8192)
            except BlockingIOError:
                break
            if b"bridle-kb" in record:
                lines.append(record)
    finally:
        os.close(fd)
    return lines
probe("x:syslog-read", klog)
probe("x:syslog-size", lambda: sc("syslog", 10, None, 0))  # SYSLOG_ACTION_SIZE_BUFFER
probe("x:kmsg-read", kmsg)

# The call's own objects: allowed, and gone with the call (its IPC namespace).
def own_shm(key):
    shmid = c("shmget", key, 4096, 0o1000 | 0o666)
    addr = c("shmat", shmid, None, 0, restype=ctypes.c_void_p)
    ctypes.memmove(addr, b"own segment", 11)
    return ctypes.string_at(addr, 11)
probe("ctl:own-shm", lambda: own_shm(ARGS["ownKey"]))
probe("ctl:own-msg", lambda: c("msgget", ARGS["ownKey"], 0o1000 | 0o666))
probe("ctl:own-sem", lambda: c("semget", ARGS["ownKey"], 1, 0o1000 | 0o666))
probe("ctl:fifo", lambda: os.mkfifo(A + "/kbfifo"))
probe("ctl:hostname", socket.gethostname)
probe("ctl:urandom", lambda: len(read("/dev/urandom", 16)))
`;

// --- KB6: file handles on a masked directory --------------------------------------------

const HANDLE_OF = String.raw`
import ctypes, json, platform, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
nr = {"x86_64": 303, "aarch64": 264}[platform.machine()]
out = {}
for path in json.load(sys.stdin):
    fh = ctypes.create_string_buffer(struct.pack("Ii", 128, 0) + b"\0" * 128, 136)
    mount_id = ctypes.c_int()
    if libc.syscall(ctypes.c_long(nr), ctypes.c_long(-100), path.encode(), fh,
                    ctypes.byref(mount_id), ctypes.c_long(0)) != 0:
        raise SystemExit("name_to_handle_at: errno %d" % ctypes.get_errno())
    size, kind = struct.unpack("Ii", fh.raw[:8])
    out[path] = {"type": kind, "bytes": fh.raw[8:8 + size].hex()}
print(json.dumps(out))
`;

const KB6 = String.raw`
import struct
A, B, O = ARGS["A"], ARGS["B"], ARGS["O"]

def by_handle(mount_path, handle, directory=False):
    mfd = os.open(mount_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        raw = bytes.fromhex(handle["bytes"])
        packed = struct.pack("Ii", len(raw), handle["type"]) + raw
        fh = ctypes.create_string_buffer(packed, len(packed))
        fd = sc("open_by_handle_at", mfd, fh, os.O_RDONLY | (os.O_DIRECTORY if directory else 0))
        try:
            return os.listdir(fd) if directory else os.read(fd, 4096)
        finally:
            os.close(fd)
    finally:
        os.close(mfd)

def to_handle(path):
    fh = ctypes.create_string_buffer(struct.pack("Ii", 128, 0) + b"\0" * 128, 136)
    mount_id = ctypes.c_int()
    sc("name_to_handle_at", -100, path.encode(), fh, ctypes.byref(mount_id), 0)
    size, kind = struct.unpack("Ii", fh.raw[:8])
    return {"type": kind, "bytes": fh.raw[8:8 + size].hex()}

for mount in ("A", "B", "root", "usr"):
    path = {"A": A, "B": B, "root": "/", "usr": "/usr"}[mount]
    probe("x:B-key-by-handle-via-%s" % mount, lambda: by_handle(path, ARGS["handleB"]))
    probe("x:B-dir-by-handle-via-%s" % mount, lambda: by_handle(path, ARGS["handleBdir"], True))
probe("x:O-by-handle", lambda: by_handle(A, ARGS["handleO"]))
probe("x:handle-of-B-key", lambda: to_handle(B + "/key.txt"))
probe("info:handle-of-granted", lambda: to_handle(A + "/ok.txt"))
probe("info:list-B", lambda: os.listdir(B))
probe("ctl:read-granted", lambda: read(A + "/ok.txt"))
probe("ctl:list-A", lambda: sorted(os.listdir(A)))
`;

// --- KB7: a write-only root -------------------------------------------------------------

const KB7 = `
A, W = ARGS["A"], ARGS["W"]

def rdwr(path):
    fd = os.open(path, os.O_RDWR)
    try:
        return os.read(fd, 4096)
    finally:
        os.close(fd)

def reopen(path):
    fd = os.open(path, os.O_PATH)
    try:
        return read("/proc/self/fd/%d" % fd)
    finally:
        os.close(fd)

def moved(op, target):
    op(W + "/secret.txt", target)
    return read(target)

probe("x:read", lambda: read(W + "/secret.txt"))
probe("x:list", lambda: os.listdir(W))
probe("x:scandir", lambda: [e.name for e in os.scandir(W)])
probe("x:rdwr", lambda: rdwr(W + "/secret.txt"))
probe("x:opath-reopen", lambda: reopen(W + "/secret.txt"))
probe("x:link-into-A", lambda: moved(os.link, A + "/linked.txt"))
probe("x:mmap", lambda: __import__("mmap").mmap(os.open(W + "/secret.txt", os.O_RDWR), 0)[:64])
probe("x:rename-into-A", lambda: moved(os.rename, A + "/stolen.txt"))
probe("ctl:write-new", lambda: write(W + "/new.txt", "written"))
probe("ctl:append-new", lambda: write(W + "/new.txt", "+more", os.O_WRONLY | os.O_APPEND))
probe("ctl:read-granted", lambda: read(A + "/ok.txt"))
`;

// --- KB8 and KB11: secrets of the runtime closure, and under fs_read "all" ---------------

const SECRETS = `
def secret(path):
    data = read(path)
    if not data:
        raise OSError(-2, "empty (masked)")
    return data

probe("x:shadow", lambda: secret("/etc/shadow"))
probe("x:gshadow", lambda: secret("/etc/gshadow"))
probe("x:sudoers", lambda: secret("/etc/sudoers"))
for path in ARGS["keys"]:
    probe("x:key-" + path.strip("/").replace("/", "-"), lambda path=path: secret(path))
probe("info:ssl-private-list", lambda: os.listdir("/etc/ssl/private"))
probe("ctl:passwd", lambda: read("/etc/passwd"))
if ARGS["certs"]:
    probe("ctl:ssl-certs", lambda: len(os.listdir("/etc/ssl/certs")))
`;

const KB11 = `
A, B, O = ARGS["A"], ARGS["B"], ARGS["O"]
probe("x:B-key", lambda: secret(B + "/key.txt"))
probe("x:B-key-dotdot", lambda: secret(A + "/./blocked/../blocked/key.txt"))
probe("x:B-key-proc-root", lambda: secret("/proc/self/root" + B + "/key.txt"))
probe("info:B-list", lambda: os.listdir(B))
probe("ctl:outside-public", lambda: read(ARGS["public"], 64))
`;

/** Root-only fixture: a canary key in /etc/ssl/private (removed after the row). */
function plantSslKey(f: Fixture): string[] {
  const keysToTry = ["/etc/ssl/private/ssl-cert-snakeoil.key"];
  if (isRoot && existsSync("/etc/ssl/private")) {
    const path = `/etc/ssl/private/bridle-kb-${Math.random().toString(16).slice(2, 10)}.pem`;
    writeFileSync(path, "CANARY-BLK-ssl-private\n", { mode: 0o600 });
    hold(f).cleanups.push(() => rmSync(path, { force: true }));
    keysToTry.push(path);
  }
  return keysToTry;
}

/**
 * Root-only fixture: a canary service-account token where containers mount secrets,
 * `/run/secrets`, which `/var/run/secrets` names through the `/var/run` link (removed
 * after the row). Blocked under every grant, `fs_read: "all"` included (ADR 0030).
 */
function plantRunSecret(f: Fixture): string[] {
  if (!isRoot || !existsSync("/run")) return [];
  const dir = `/run/secrets/bridle-kb-${Math.random().toString(16).slice(2, 10)}`;
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  writeFileSync(`${dir}/token`, "CANARY-BLK-run-secret\n", { mode: 0o644 });
  hold(f).cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const viaVar = existsSync("/var/run") ? [`/var${dir}/token`] : [];
  return [`${dir}/token`, ...viaVar];
}

/** The lines of /etc/shadow and /etc/gshadow (canaries) as far as this user can read them. */
function shadowLines(): string[] {
  return ["/etc/shadow", "/etc/gshadow"].flatMap((path) => {
    try {
      return readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => line.length > 8);
    } catch {
      return [];
    }
  });
}

function expectNoShadowLine(outcome: Outcome | undefined, f: Fixture, label: string): void {
  const text = `${outcome?.response.stdout ?? ""}${outcome?.response.stderr ?? ""}`;
  for (const line of hold(f).lines) expect(text.includes(line), `${label}: ${line}`).toBe(false);
}

async function secretsSetup(f: Fixture, name: string, body: string): Promise<void> {
  hold(f).lines.push(...shadowLines());
  const sshKeys = ["rsa", "ecdsa", "ed25519"]
    .map((kind) => `/etc/ssh/ssh_host_${kind}_key`)
    .filter((path) => existsSync(path));
  script(f, name, SECRETS + body, {
    keys: [...plantSslKey(f), ...plantRunSecret(f), ...sshKeys],
    certs: existsSync("/etc/ssl/certs"),
    public: PUBLIC_PATH,
  });
}

// --- KB9: existing write-blocked configuration ------------------------------------------

const GIT_CONFIG = "[core]\n\trepositoryformatversion = 0\n\tbare = false\n";

const KB9 = String.raw`
A = ARGS["A"]
G = A + "/.git"
EVIL = "[core]\n\tfsmonitor = touch " + A + "/PWNED-fsmonitor\n"
for name in ("config", "commondir"):
    path = G + "/" + name
    probe("x:%s-write" % name, lambda: write(path, EVIL))
    probe("x:%s-append" % name, lambda: write(path, EVIL, os.O_WRONLY | os.O_APPEND))
    probe("x:%s-chmod" % name, lambda: os.chmod(path, 0o666))
    probe("x:%s-utime" % name, lambda: os.utime(path, (1, 1)))
    probe("x:%s-setxattr" % name, lambda: os.setxattr(path, "user.kb", b"pwned"))
    probe("x:%s-truncate" % name, lambda: os.truncate(path, 0))
    probe("x:%s-rename-over" % name,
          lambda: (write(A + "/" + name + ".new", EVIL), os.rename(A + "/" + name + ".new", path)))
    probe("x:%s-unlink" % name, lambda: os.unlink(path))
probe("x:hooks-create", lambda: write(G + "/hooks/pre-commit", "#!/bin/sh\ntouch PWNED\n"))
probe("x:info-exclude", lambda: write(G + "/info/exclude", "*\n"))

def swap_git_dir():
    os.rename(G, A + "/.git-old")
    os.mkdir(G)
    write(G + "/config", EVIL)
probe("x:gitdir-rename", swap_git_dir)
probe("ctl:write-ok2", lambda: write(A + "/ok2", "ok2"))
`;

// KB9, planted: an existing repository lacks commondir, hooks and info (nothing to bind
// read-only); python3 creates them, aiming commondir at a common directory of its own
// whose config runs a marker at the user's next git command.
const KB9_PLANTED = String.raw`
A = ARGS["A"]
G = A + "/repo/.git"
def plant():
    os.makedirs(A + "/evil/objects", exist_ok=True)
    os.makedirs(A + "/evil/refs", exist_ok=True)
    write(A + "/evil/HEAD", "ref: refs/heads/main\n")
    write(A + "/evil/config", "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = \"touch " + ARGS["marker"] + "; false\"\n")
    write(G + "/commondir", A + "/evil\n")
    os.makedirs(G + "/hooks")
    write(G + "/hooks/pre-commit", "#!/bin/sh\ntouch " + ARGS["marker"] + "\n")
    os.chmod(G + "/hooks/pre-commit", 0o755)
    os.makedirs(G + "/info")
    write(G + "/info/attributes", "* filter=evil\n")
    return "planted"
probe("info:plant", plant)
probe("ctl:work", lambda: write(A + "/repo/work.txt", "work"))
`;

// KB9, agent configuration: what an agent, an editor or a shell would run or start at its
// next session, created in the write root by python3 (nothing existed to bind read-only).
const KB9_AGENT = String.raw`
A = ARGS["A"]
def plant():
    write(A + "/.mcp.json", '{"mcpServers": {"x": {"command": "touch", "args": ["' + ARGS["marker"] + '"]}}}')
    os.makedirs(A + "/.claude")
    write(A + "/.claude/settings.json", '{"hooks": {}}')
    os.makedirs(A + "/.vscode")
    write(A + "/.vscode/tasks.json", "{}")
    write(A + "/.bashrc", "touch " + ARGS["marker"] + "\n")
    return "planted"
probe("info:plant", plant)
probe("ctl:work", lambda: write(A + "/work.txt", "work"))
`;

// KB9, submodule route: a gitlink in an existing repository's index, and a .git file that
// leads to a git directory of python3's own, whose config runs a marker.
const KB9_GITLINK = String.raw`
import subprocess
A = ARGS["A"]
R = A + "/repo"
def plant():
    subprocess.run(["git", "init", "-q", "--bare", A + "/evil"], check=True)
    write(A + "/evil/config", "[core]\n\tbare = false\n\tworktree = " + R + "/sub\n\tfsmonitor = \"touch " + ARGS["marker"] + "; false\"\n")
    os.makedirs(R + "/sub")
    write(R + "/sub/.git", "gitdir: " + A + "/evil\n")
    head = subprocess.run(["git", "-C", R, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    subprocess.run(["git", "-C", R, "update-index", "--add", "--cacheinfo", "160000," + head + ",sub"], check=True)
    return "planted"
probe("info:plant", plant)
probe("ctl:work", lambda: write(R + "/work.txt", "work"))
`;

// --- KB10: limits -----------------------------------------------------------------------

const FILE_LIMIT = 1 << 20;

const KB10 = String.raw`
A = ARGS["A"]
CHUNK = b"\0" * 65536

def fill(path, total):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    n = 0
    try:
        while n < total:
            n += os.write(fd, CHUNK)
        return n
    finally:
        os.close(fd)

def grow(path, how):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        return how(fd)
    finally:
        os.close(fd)

probe("x:write-8m", lambda: fill(A + "/big", 8 << 20))
probe("x:truncate-2g", lambda: grow(A + "/sparse", lambda fd: os.ftruncate(fd, 2 << 30)))
probe("x:fallocate-64m", lambda: grow(A + "/alloc", lambda fd: os.posix_fallocate(fd, 0, 64 << 20)))
probe("x:seek-write-2g", lambda: grow(A + "/far", lambda fd: os.pwrite(fd, b"x", 2 << 30)))
probe("ctl:write-512k", lambda: fill(A + "/small", 512 << 10))
`;

// KB10, open files: descriptors up to the limit, then EMFILE (the bash worker's own
// descriptors are not the program's: it is a process of its own).
const OPEN_FILES_LIMIT = 64;

const KB10_FILES = String.raw`
A = ARGS["A"]
def open_many(limit):
    fds = []
    try:
        while len(fds) < 4 * limit:
            fds.append(os.open(A + "/ok-files", os.O_RDONLY))
    except OSError as e:
        return {"opened": len(fds), "errno": e.errno}
    finally:
        for fd in fds:
            os.close(fd)
    return {"opened": len(fds)}
result = open_many(ARGS["limit"])
probe("x:open-past-limit", lambda: result if "errno" not in result else (_ for _ in ()).throw(OSError(result["errno"], "open")))
probe("info:open-files", lambda: result)
probe("ctl:open-again", lambda: os.close(os.open(A + "/ok-files", os.O_RDONLY)))
`;

// --- KB12: the existence oracle ---------------------------------------------------------

const KB12 = `
which = sys.argv[1]
paths = ARGS[which]

def chdir_back(path):
    here = os.getcwd()
    os.chdir(path)
    os.chdir(here)

def creat_excl(path):
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))

OPS = {
    "stat": os.stat,
    "lstat": os.lstat,
    "open": lambda p: read(p, 16),
    "listdir": os.listdir,
    "scandir": lambda p: [e.name for e in os.scandir(p)],
    "access": lambda p: os.access(p, os.F_OK),
    "exists": os.path.exists,
    "isdir": os.path.isdir,
    "readlink": os.readlink,
    "chdir": chdir_back,
    "listxattr": os.listxattr,
    "statvfs": lambda p: os.statvfs(p).f_bsize,
    "creat-excl": creat_excl,
    "mkdir": os.mkdir,
    "child": lambda p: os.stat(p + "/child"),
}
for label in sorted(paths):
    for op in sorted(OPS):
        probe("x:%s-%s" % (label, op), lambda op=op, label=label: OPS[op](paths[label]))
probe("ctl:granted-exists", lambda: os.stat(ARGS["A"] + "/ok.txt").st_size)
probe("info:granted-missing", lambda: os.stat(ARGS["A"] + "/missing.txt").st_size)
`;

// The probes of KB12 that answer a plain value (False, not an error) for both paths alike.
const ORACLE_VALUES = ["access", "exists", "isdir"];

export const KERNEL_BOUNDARY_ATTACKS: readonly Attack[] = [
  {
    id: "KB1",
    title: "/proc of other processes: a host process's environment, descriptors, cwd, root, memory",
    deep: true,
    exec: ["python3"],
    hostEnv: () => ({ LEASH_TEST_SECRET: "CANARY-ENV" }),
    setup: async (f) => {
      const sleeper = await startSleeper(f);
      const pid = sleeper.pid ?? -1;
      script(f, "kb1", KB1, { hostPid: process.pid, sleeperPid: pid, stackTop: stackTop(pid) });
    },
    teardown: release,
    steps: () => [{ ...run("kb1"), env: { KB_CALL: "kb1" } }],
    check: (outcomes, f, engine) => {
      const probes = expectContained(outcomes[0], `KB1 ${engine}`);
      expect(value(probes, "ctl:read-granted")).toBe("OK");
      const scanned = Object.keys(value(probes, "info:scan") ?? {}).map((key) => key.split("/")[0]);
      const sleeper = hold(f).processes[0]?.pid;
      expect(scanned, "the host's processes are not in the call's /proc").not.toContain(
        String(sleeper),
      );
      expect(scanned).not.toContain(String(process.pid));
    },
  },
  {
    id: "KB1",
    title: "control: a program reads its own /proc/self (environ, status, fd, maps)",
    deep: true,
    exec: ["python3"],
    setup: (f) => script(f, "kb1self", KB1_SELF),
    steps: () => [{ ...run("kb1self"), env: { KB_CALL: "kb1self" } }],
    check: (outcomes, _f, engine) => {
      const probes = expectContained(outcomes[0], `KB1 ${engine} (own /proc)`);
      expect(String(value(probes, "ctl:self-environ"))).toContain("KB_CALL=kb1self");
    },
  },
  {
    id: "KB2",
    title:
      "the worker's channel: signals, ptrace, pidfd_getfd, /proc/<worker>/fd|mem, forged frames on every descriptor; the envelope stays the script's",
    deep: true,
    notApplicable: ONLY_BASH,
    exec: ["python3"],
    setup: (f) => script(f, "kb2", KB2),
    steps: () => [
      {
        cmd: 'echo real-before\npython3 $A/kb2.py\necho "py-exit=$?"\ncat $O/secret.txt\necho real-after\nexit 7',
        timeout_secs: 20,
      },
    ],
    check: (outcomes, f) => {
      const response = outcomes[0]?.response ?? {};
      const probes = expectContained(outcomes[0], "KB2 bash");
      const stdout = String(response.stdout);
      expect(response.exit_code, "the script's own exit code").toBe(7);
      expect(stdout.startsWith("real-before\n"), stdout).toBe(true);
      expect(stdout).toContain("py-honest\n");
      expect(stdout).toContain("py-exit=3\n");
      expect(stdout.endsWith("real-after\n"), stdout).toBe(true);
      expect(stdout).not.toContain("FORGED");
      const denials = (response.denials ?? []) as { target?: string }[];
      expect(denials.map((denial) => denial.target)).toContain(join(f.O, "secret.txt"));
      expect(denials.map((denial) => denial.target)).not.toContain("/forged");
      const sockets = ((value(probes, "info:own-fds") ?? []) as [number, number][]).filter(
        ([, type]) => type === S_IFSOCK,
      );
      expect(sockets, "a socket reached the program (the channel must not)").toEqual([]);
    },
  },
  {
    id: "KB3",
    title:
      "metadata outside fs_write: chmod, chown, utime, xattrs on $O and on a read-only root; the same on $A works",
    deep: true,
    exec: ["python3"],
    grant: (f) => ({ fs_read: { only: [f.A, join(f.WS, "readonly"), "/usr"] } }),
    setup: (f) => {
      const R = join(f.WS, "readonly");
      mkdirSync(R);
      writeFileSync(join(f.O, "meta.txt"), "meta");
      writeFileSync(join(R, "target.txt"), "target");
      writeFileSync(join(f.A, "meta.txt"), "mine");
      for (const path of [join(f.O, "meta.txt"), join(R, "target.txt"), join(f.A, "meta.txt")])
        settle(path);
      settle(f.O);
      settle(R);
      script(f, "kb3", KB3, { R });
    },
    steps: () => [run("kb3")],
    check: (outcomes, f, engine) => {
      expectContained(outcomes[0], `KB3 ${engine}`);
      const mine = join(f.A, "meta.txt");
      expect(statSync(mine).mode & 0o777).toBe(0o640);
      expect(statSync(mine).mtimeMs).toBe(1_000_000);
      expect(
        hostPython("import os, sys\nprint(os.getxattr(sys.stdin.read(), 'user.kb'))", mine),
      ).toBe("b'mine'\n");
      expect(existsSync(join(f.A, "hard.txt"))).toBe(false);
      expect(existsSync(join(f.A, "hard2.txt"))).toBe(false);
    },
  },
  {
    id: "KB4",
    title:
      "UNIX sockets outside the grants: a host listener in $O by path, by a link in $A, by abstract name, by datagram",
    deep: true,
    exec: ["python3"],
    setup: async (f) => script(f, "kb4", KB4, await startListener(f)),
    teardown: release,
    steps: () => [run("kb4")],
    check: (outcomes, f, engine) => KB4_CHECK(outcomes, f, `KB4 ${engine}`),
  },
  {
    id: "KB4",
    title:
      'UNIX sockets under net "all": the host listener stays out of reach; the call\'s own listener works',
    deep: true,
    exec: ["python3"],
    grant: () => ({ net: "all" }),
    setup: async (f) => script(f, "kb4all", KB4, { ...(await startListener(f)), ownListener: 1 }),
    teardown: release,
    steps: () => [run("kb4all")],
    check: (outcomes, f, engine) => {
      KB4_CHECK(outcomes, f, `KB4 ${engine} (net all)`);
      expect(value(probesOf(outcomes[0]), "ctl:own-listener")).toBe("own-ok");
    },
  },
  {
    id: "KB5",
    title:
      "root-only host state: hostname, interfaces, SysV IPC, keyrings, device nodes, the kernel log; the call's own IPC objects and FIFO work",
    deep: true,
    exec: ["python3"],
    setup: (f) => {
      const shmKey = kbIpcKey();
      const shmId = Number(hostPython(HOST_SHM, `${shmKey} CANARY-OUT-shm`));
      hold(f).cleanups.push(() => hostPython(HOST_UNSHM, String(shmId)));
      const keyDesc = `bridle-kb-host-${Math.random().toString(16).slice(2, 10)}`;
      const keyId = Number(hostPython(HOST_KEY, `${keyDesc} CANARY-OUT-key`));
      hold(f).cleanups.push(() => hostPython(HOST_UNKEY, String(keyId)));
      if (isRoot) writeFileSync("/dev/kmsg", "bridle-kb: CANARY-OUT-kmsg\n");
      const domain = "/proc/sys/kernel/domainname";
      const before = {
        hostname: hostname(),
        domain: readFileSync(domain, "utf8"),
        mtu: readFileSync("/sys/class/net/lo/mtu", "utf8"),
      };
      hold(f).cleanups.push(() => {
        // undo what a hole did (the judge has already seen it)
        if (isRoot && hostname() !== before.hostname) spawnSync("hostname", [before.hostname]);
        if (isRoot && readFileSync(domain, "utf8") !== before.domain)
          writeFileSync(domain, before.domain);
        if (isRoot && readFileSync("/sys/class/net/lo/mtu", "utf8") !== before.mtu)
          spawnSync("ip", ["link", "set", "lo", "mtu", before.mtu.trim()]);
      });
      const plant = `kbplant-${Math.random().toString(16).slice(2, 10)}`;
      const ownKey = kbIpcKey();
      hold(f).facts = { plant, ownKey: String(ownKey) };
      script(f, "kb5", KB5, { shmKey, shmId, keyId, keyDesc, plant, ownKey });
    },
    teardown: release,
    steps: () => [run("kb5")],
    check: (outcomes, f, engine) => {
      const probes = expectContained(outcomes[0], `KB5 ${engine}`);
      const { plant = "?", ownKey } = hold(f).facts;
      expect(value(probes, "info:shm-scan"), "host segments seen").toEqual([]);
      expect(String(value(probes, "info:proc-keys") ?? "")).not.toContain("bridle-kb-host");
      expect(value(probes, "ctl:own-shm")).toBe("own segment");
      expect(keys(true).join("\n"), "a planted key").not.toContain(plant);
      const key = `${Number(ownKey)}`;
      for (const kind of ["shm", "msg", "sem"] as const)
        expect(
          sysvIpc(kind, true).map((row) => row.split(" ")[0]),
          kind,
        ).not.toContain(key);
      expect(existsSync(join(f.A, "kbnull"))).toBe(false);
      expect(existsSync(join(f.A, "kbdisk"))).toBe(false);
      expect(lstatSync(join(f.A, "kbfifo")).isFIFO()).toBe(true);
    },
  },
  {
    id: "KB6",
    title:
      "file handles: open_by_handle_at with the real handles of the masked $B and of $O fails; name_to_handle_at finds no $B file",
    deep: true,
    exec: ["python3"],
    setup: (f) => {
      const key = join(f.B, "key.txt");
      const secret = join(f.O, "secret.txt");
      const handles = JSON.parse(hostPython(HANDLE_OF, JSON.stringify([key, secret, f.B])));
      script(f, "kb6", KB6, {
        handleB: handles[key],
        handleO: handles[secret],
        handleBdir: handles[f.B],
      });
    },
    steps: () => [run("kb6")],
    check: (outcomes, _f, engine) => {
      const probes = expectContained(outcomes[0], `KB6 ${engine}`);
      expect(value(probes, "ctl:read-granted")).toBe("OK");
      expect(value(probes, "info:list-B") ?? []).not.toContain("key.txt");
    },
  },
  {
    id: "KB7",
    title:
      "a write-only root: its canary cannot be read, listed, reopened, mapped, moved or linked out; writing works",
    deep: true,
    exec: ["python3"],
    grant: (f) => ({ fs_write: { only: [f.A, join(f.WS, "writeonly")] } }),
    setup: (f) => {
      const W = join(f.WS, "writeonly");
      mkdirSync(W);
      writeFileSync(join(W, "secret.txt"), "CANARY-OUT-write-only");
      f.exclude(W);
      script(f, "kb7", KB7, { W });
    },
    steps: () => [run("kb7")],
    check: (outcomes, f, engine) => {
      expectContained(outcomes[0], `KB7 ${engine}`);
      const W = join(f.WS, "writeonly");
      expect(readFileSync(join(W, "new.txt"), "utf8")).toBe("written+more");
      expect(readFileSync(join(W, "secret.txt"), "utf8")).toBe("CANARY-OUT-write-only");
      expect(existsSync(join(f.A, "stolen.txt"))).toBe(false);
      expect(existsSync(join(f.A, "linked.txt"))).toBe(false);
    },
  },
  {
    id: "KB8",
    title:
      "secrets next to the runtime closure: /etc/shadow, /etc/gshadow, /etc/ssl/private, SSH host keys; /etc/passwd reads",
    deep: true,
    exec: ["python3"],
    setup: (f) => secretsSetup(f, "kb8", ""),
    teardown: release,
    steps: () => [run("kb8")],
    check: (outcomes, f, engine) => {
      const probes = expectContained(outcomes[0], `KB8 ${engine}`);
      expectNoShadowLine(outcomes[0], f, `KB8 ${engine}`);
      expect(String(value(probes, "ctl:passwd"))).toContain("root:");
      expect(JSON.stringify(value(probes, "info:ssl-private-list") ?? [])).not.toContain(
        "bridle-kb",
      );
    },
  },
  {
    id: "KB9",
    title:
      "existing write-blocked configuration: .git/config and .git/commondir stay byte-identical (write, rename over, unlink, chmod, the .git dir swapped); $A/ok2 is written",
    deep: true,
    exec: ["python3"],
    setup: (f) => {
      const git = join(f.A, ".git");
      for (const dir of ["hooks", "info", "objects", "refs"])
        mkdirSync(join(git, dir), { recursive: true });
      writeFileSync(join(git, "HEAD"), "ref: refs/heads/main\n");
      writeFileSync(join(git, "config"), GIT_CONFIG);
      writeFileSync(join(git, "commondir"), "../common-kb\n");
      writeFileSync(join(git, "info", "exclude"), "");
      for (const name of ["config", "commondir"]) settle(join(git, name));
      f.watch(git);
      script(f, "kb9", KB9);
    },
    steps: () => [run("kb9")],
    check: (outcomes, f, engine) => {
      expectContained(outcomes[0], `KB9 ${engine}`);
      expect(readFileSync(join(f.A, ".git", "config"), "utf8")).toBe(GIT_CONFIG);
      expect(readFileSync(join(f.A, ".git", "commondir"), "utf8")).toBe("../common-kb\n");
      expect(readFileSync(join(f.A, "ok2"), "utf8")).toBe("ok2");
      expect(existsSync(join(f.A, ".git-old"))).toBe(false);
    },
  },
  {
    id: "KB9",
    title:
      "configuration an existing repository lacks (commondir, hooks, info), planted by a program, is moved aside when the call ends: the user's next git status and commit run nothing planted",
    deep: true,
    exec: ["python3"],
    setup: (f) => {
      const repo = join(f.A, "repo");
      spawnSync("git", ["init", "-q", repo]);
      rmSync(join(repo, ".git", "hooks"), { recursive: true, force: true });
      rmSync(join(repo, ".git", "info"), { recursive: true, force: true });
      script(f, "kb9planted", KB9_PLANTED, { marker: join(f.O, "PWNED-kb9") });
    },
    steps: () => [run("kb9planted")],
    check: (outcomes, f, engine) => {
      const label = `KB9 planted ${engine}`;
      const probes = expectContained(outcomes[0], label);
      expect(value(probes, "info:plant"), `${label}: the plant ran`).toBe("planted");
      const gitDir = join(f.A, "repo", ".git");
      for (const name of ["commondir", "hooks", "info"])
        expect(existsSync(join(gitDir, name)), `${label}: ${name}`).toBe(false);
      const denials = JSON.stringify(outcomes[0]?.response.denials ?? []);
      for (const name of ["commondir", "hooks", "info"])
        expect(denials, `${label}: denial for ${name}`).toContain(`${gitDir}/${name}`);
      const git = (...args: string[]) =>
        spawnSync("git", ["-C", join(f.A, "repo"), ...args], { encoding: "utf8" });
      expect(git("status", "--porcelain").status, `${label}: git status`).toBe(0);
      const identity = ["-c", "user.email=u@example.com", "-c", "user.name=u"];
      expect(git(...identity, "commit", "-qm", "x", "--allow-empty").status).toBe(0);
      expect(existsSync(join(f.O, "PWNED-kb9")), `${label}: marker`).toBe(false);
      expect(readFileSync(join(f.A, "repo", "work.txt"), "utf8")).toBe("work");
    },
  },
  {
    id: "KB9",
    title:
      "agent, editor and shell configuration a program creates in the write root (.mcp.json, .claude/, .vscode/, .bashrc) is moved aside when the call ends, each a denial",
    deep: true,
    exec: ["python3"],
    setup: (f) => script(f, "kb9agent", KB9_AGENT, { marker: join(f.O, "PWNED-kb9-agent") }),
    steps: () => [run("kb9agent")],
    check: (outcomes, f, engine) => {
      const label = `KB9 agent ${engine}`;
      const probes = expectContained(outcomes[0], label);
      expect(value(probes, "info:plant"), `${label}: the plant ran`).toBe("planted");
      const denials = JSON.stringify(outcomes[0]?.response.denials ?? []);
      for (const name of [".mcp.json", ".claude", ".vscode", ".bashrc"]) {
        expect(existsSync(join(f.A, name)), `${label}: ${name}`).toBe(false);
        expect(denials, `${label}: denial for ${name}`).toContain(JSON.stringify(join(f.A, name)));
      }
      expect(readFileSync(join(f.A, "work.txt"), "utf8")).toBe("work");
    },
  },
  {
    id: "KB9",
    title:
      "a gitlink planted in an existing repository's index with a .git file leading to a git directory of the attacker's: the .git file is moved aside when the call ends, and the user's next git status runs nothing planted",
    deep: true,
    exec: ["python3", "git"],
    setup: (f) => {
      const repo = join(f.A, "repo");
      spawnSync("git", ["init", "-q", repo]);
      writeFileSync(join(repo, "a"), "a\n");
      spawnSync("git", ["-C", repo, "add", "a"]);
      spawnSync("git", [
        "-C",
        repo,
        "-c",
        "user.email=u@e",
        "-c",
        "user.name=u",
        "commit",
        "-qm",
        "a",
      ]);
      script(f, "kb9gitlink", KB9_GITLINK, { marker: join(f.O, "PWNED-kb9-gitlink") });
    },
    steps: () => [run("kb9gitlink")],
    check: (outcomes, f, engine) => {
      const label = `KB9 gitlink ${engine}`;
      const probes = expectContained(outcomes[0], label);
      expect(value(probes, "info:plant"), `${label}: the plant ran`).toBe("planted");
      const gitFile = join(f.A, "repo", "sub", ".git");
      expect(existsSync(gitFile), `${label}: sub/.git`).toBe(false);
      expect(JSON.stringify(outcomes[0]?.response.denials ?? [])).toContain(
        JSON.stringify(gitFile),
      );
      const status = spawnSync("git", ["-C", join(f.A, "repo"), "status", "--porcelain"]);
      expect(status.status, `${label}: git status`).toBe(0);
      expect(existsSync(join(f.O, "PWNED-kb9-gitlink")), `${label}: marker`).toBe(false);
      expect(readFileSync(join(f.A, "repo", "work.txt"), "utf8")).toBe("work");
    },
  },
  {
    id: "KB10",
    title:
      "limits: with a 1 MiB file-size limit, writes, truncation, fallocate and a far pwrite stay within it; 512 KiB is written",
    deep: true,
    exec: ["python3"],
    resourceLimits: { ...DEFAULT_RESOURCE_LIMITS, fileSizeBytes: FILE_LIMIT },
    setup: (f) => script(f, "kb10", KB10),
    steps: () => [run("kb10")],
    check: (outcomes, f, engine) => {
      const probes = expectContained(outcomes[0], `KB10 ${engine}`);
      expect(value(probes, "ctl:write-512k")).toBe(512 << 10);
      for (const name of ["big", "sparse", "alloc", "far"]) {
        const path = join(f.A, name);
        if (existsSync(path)) expect(statSync(path).size, name).toBeLessThanOrEqual(FILE_LIMIT);
      }
      expect(statSync(join(f.A, "small")).size).toBe(512 << 10);
    },
  },
  {
    id: "KB10",
    title:
      "limits: a program that hits the file-size limit (and ignores SIGXFSZ, as python does) is reported: LIMIT_EXCEEDED file_size",
    deep: true,
    exec: ["python3"],
    resourceLimits: { ...DEFAULT_RESOURCE_LIMITS, fileSizeBytes: FILE_LIMIT },
    setup: (f) => script(f, "kb10report", KB10),
    steps: () => [run("kb10report")],
    check: (outcomes, _f, engine) => {
      expectContained(outcomes[0], `KB10 ${engine} (report)`);
      const denials = (outcomes[0]?.response.denials ?? []) as { code?: string; target?: string }[];
      expect(denials).toContainEqual(
        expect.objectContaining({ code: "LIMIT_EXCEEDED", target: "file_size" }),
      );
    },
  },
  {
    id: "KB10",
    title:
      "limits: with openFiles 64, descriptors run out with EMFILE past the limit and not before it (not reported: no signal tells)",
    deep: true,
    exec: ["python3"],
    resourceLimits: { ...DEFAULT_RESOURCE_LIMITS, openFiles: OPEN_FILES_LIMIT },
    setup: (f) => {
      writeFileSync(join(f.A, "ok-files"), "ok\n");
      script(f, "kb10files", KB10_FILES, { limit: OPEN_FILES_LIMIT });
    },
    steps: () => [run("kb10files")],
    check: (outcomes, _f, engine) => {
      const probes = expectContained(outcomes[0], `KB10 ${engine} (open files)`);
      const result = value(probes, "info:open-files") as { opened: number; errno?: number };
      expect(result.errno).toBe(24); // EMFILE
      expect(result.opened).toBeGreaterThan(OPEN_FILES_LIMIT / 2); // control: below the limit
      expect(result.opened).toBeLessThanOrEqual(OPEN_FILES_LIMIT);
    },
  },
  {
    id: "KB11",
    title:
      'fs_read "all": the masked $B, /etc/shadow, /etc/ssl/private stay unreadable; a file outside the fixture and /etc/passwd read',
    deep: true,
    exec: ["python3"],
    grant: () => ({ fs_read: "all" }),
    setup: (f) => secretsSetup(f, "kb11", KB11),
    teardown: release,
    steps: () => [run("kb11")],
    check: (outcomes, f, engine) => {
      const probes = expectContained(outcomes[0], `KB11 ${engine}`);
      expectNoShadowLine(outcomes[0], f, `KB11 ${engine}`);
      expect(value(probes, "ctl:outside-public")).toBe(PUBLIC.slice(0, 64));
      expect(String(value(probes, "ctl:passwd"))).toContain("root:");
      expect(value(probes, "info:B-list") ?? []).not.toContain("key.txt");
    },
  },
  {
    id: "KB12",
    title:
      "the existence oracle: an existing and a missing path outside the grant answer alike (stat, open, listdir, access, mkdir, …)",
    deep: true,
    exec: ["python3"],
    setup: (f) =>
      script(f, "kb12", KB12, {
        exists: {
          "o-file": join(f.O, "secret.txt"),
          "o-dir": f.O,
          "b-file": join(f.B, "key.txt"),
          "etc-file": "/etc/shadow",
          "root-dir": "/root",
          "var-dir": "/var/lib",
        },
        missing: {
          "o-file": join(f.O, "missing.txt"),
          "o-dir": join(f.WS, "missing-dir"),
          "b-file": join(f.B, "missing.txt"),
          "etc-file": "/etc/kb-missing-file",
          "root-dir": "/kb-missing-root",
          "var-dir": "/var/kb-missing-dir",
        },
      }),
    steps: () => [run("kb12", " exists"), run("kb12", " missing")],
    teardown: () => {
      // what a hole would have made outside the fixture
      for (const path of ["/kb-missing-root", "/var/kb-missing-dir", "/etc/kb-missing-file"])
        rmSync(path, { recursive: true, force: true });
    },
    check: (outcomes, _f, engine) => {
      const [exists, missing] = outcomes;
      const answer = (outcome: Outcome | undefined) => ({
        stdout: outcome?.response.stdout,
        stderr: outcome?.response.stderr,
        exit_code: outcome?.response.exit_code,
        denials: outcome?.response.denials,
      });
      expect(answer(exists), `KB12 ${engine}: existing vs missing`).toEqual(answer(missing));
      // every probe outside the grant failed, or answered False (access, exists, isdir)
      const probes = probesOf(exists);
      const valued = Object.entries(probes).filter(
        ([name, probe]) =>
          name.startsWith("x:") &&
          ORACLE_VALUES.some((op) => name.endsWith(`-${op}`)) &&
          "ok" in probe,
      );
      for (const [name, probe] of valued) expect(probe, name).toEqual({ ok: false });
      const rest = Object.fromEntries(
        Object.entries(probes).filter(
          ([name]) => !valued.some(([other]) => other === name) && name.startsWith("x:"),
        ),
      );
      expect(
        Object.entries(rest).filter(([, probe]) => !failed(probe)),
        "outside the grant",
      ).toEqual([]);
      expect(value(probes, "ctl:granted-exists")).toBe(2);
      expect(probes["info:granted-missing"]).toMatchObject({ errno: 2 });
    },
  },
];
