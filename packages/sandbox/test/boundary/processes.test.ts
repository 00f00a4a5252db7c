// Kernel boundary, classes 1 and 2 (kernel-boundary.md §1.1, §1.5): other processes'
// environment, command line, memory and descriptors stay out of reach — through /proc,
// and through ptrace, process_vm_readv and pidfd_getfd — also for a nested program
// against the engine that started it (`bridle-launch --nest`).
import { once } from "node:events";
import { beforeAll, describe, expect, it } from "vitest";
import {
  attack,
  canary,
  expectContained,
  expectRan,
  fixture,
  funnelPolicy,
  hostProcess,
  hostState,
  launcherBinary,
  modes,
  outcomes,
  PRELUDE,
  PYTHON,
  RUNTIME_READ,
  setUpLauncher,
  snapshot,
  unconfined,
  value,
} from "./kit.js";

const EACCES = 13;
const EPERM = 1;

// Holds a secret in its environment and argv until killed.
const HOLDER = `import sys, time\nprint("ready", flush=True)\ntime.sleep(120)\n`;

// Reads /proc/<pid>/{environ,cmdline,mem} of every process it can name: by listing /proc,
// by trying every pid up to 32768, and the host pids it was told.
const SCAN = `
def stack_tail(pid):
    maps = read("/proc/%s/maps" % pid).decode()
    lines = [l for l in maps.splitlines() if "[stack]" in l]
    if not lines:
        raise OSError(0, "no stack")
    line = lines[0]
    start, end = (int(x, 16) for x in line.split()[0].split("-"))
    return read("/proc/%s/mem" % pid, 1 << 15, end - (1 << 15))

def scan():
    seen = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            seen[name] = {w: probe("%s-%s" % (name, w), (lambda w=w: read("/proc/%s/%s" % (name, w)))) for w in ("environ", "cmdline")}
            probe("%s-mem" % name, lambda: stack_tail(name))
    return sorted(seen)

if ARGS["scan"]:  # confined only: unconfined, the control looks at the holder alone
    probe("listing", scan)
    probe("pids", lambda: [p for p in range(1, 32769) if os.path.exists("/proc/%d/status" % p)])
for who, pid in (("holder", ARGS["holder"]), ("test", ARGS["test"])):
    probe(who + "-environ", lambda: read("/proc/%d/environ" % pid))
    probe(who + "-cmdline", lambda: read("/proc/%d/cmdline" % pid))
    probe(who + "-mem", lambda: stack_tail(pid))
probe("self-environ", lambda: read("/proc/self/environ"))
probe("self-mem", lambda: stack_tail("self"))
`;

// The engine: the call's target, holding a secret in its environment (never in argv), its
// memory and a pipe; it starts ATTACKER nested (`--nest`) or not, and reports what it saw.
const ENGINE = `
import signal, subprocess, time
secret = os.environ["BRIDLE_ENGINE_SECRET"]
buf = ctypes.create_string_buffer(("ENGINE-MEMORY:" + secret).encode())
r, w = os.pipe()
for _ in range(8):
    os.write(w, ("ENGINE-CHANNEL:" + secret).ljust(64).encode())
signaled = []
signal.signal(signal.SIGUSR1, lambda *_: signaled.append(1))
libc.prctl(0x59616D61, ctypes.c_long(-1), 0, 0, 0)  # PR_SET_PTRACER_ANY, where Yama is
target = {"pid": os.getpid(), "addr": ctypes.addressof(buf), "len": len(buf.raw), "fd": r}
argv = ARGS["wrap"] + ["-c", ARGS["prelude"], ARGS["attacker"], json.dumps(target), TOKEN]
child = subprocess.run(argv, env={"PATH": "/usr/bin:/bin", "BRIDLE_OWN": ARGS["own"]},
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, pass_fds=())
time.sleep(0.05)
probe("child-stdout", lambda: child.stdout)
probe("child-stderr", lambda: child.stderr)
probe("signaled", lambda: len(signaled))
`;

// The nested program: reaches for the engine's environment, memory and pipe by /proc,
// ptrace, process_vm_readv and pidfd_getfd, and signals it; then reads its own.
const ATTACKER = `
import signal
T = ARGS
p = T["pid"]

def nonblocking_read(path):
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        return os.read(fd, 64)
    finally:
        os.close(fd)

class iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]

def vm_read():
    local = ctypes.create_string_buffer(T["len"])
    li, ri = iovec(ctypes.addressof(local), T["len"]), iovec(T["addr"], T["len"])
    sc("process_vm_readv", p, ctypes.byref(li), 1, ctypes.byref(ri), 1, 0)
    return local.raw

def trace():
    sc("ptrace", 16, p, 0, 0)  # PTRACE_ATTACH
    os.waitpid(p, 0x40000000)  # __WALL
    libc.ptrace.restype = ctypes.c_long
    word = libc.ptrace(ctypes.c_long(2), ctypes.c_long(p), ctypes.c_void_p(T["addr"]), None)
    sc("ptrace", 17, p, 0, 0)  # PTRACE_DETACH
    return word.to_bytes(8, "little", signed=True)

def getfd():
    pidfd = os.pidfd_open(p)
    fd = sc("pidfd_getfd", pidfd, T["fd"], 0)
    os.set_blocking(fd, False)
    return os.read(fd, 64)

probe("environ", lambda: read("/proc/%d/environ" % p))
probe("mem", lambda: read("/proc/%d/mem" % p, T["len"], T["addr"]))
probe("fd", lambda: nonblocking_read("/proc/%d/fd/%d" % (p, T["fd"])))
probe("ptrace", trace)
probe("process_vm_readv", vm_read)
probe("pidfd_getfd", getfd)
probe("kill", lambda: os.kill(p, signal.SIGUSR1))
own = ctypes.create_string_buffer(b"OWN-MEMORY")
probe("own-environ", lambda: read("/proc/self/environ"))
probe("own-mem", lambda: read("/proc/self/mem", 10, ctypes.addressof(own)))
`;

const REACHES = ["environ", "mem", "fd", "ptrace", "process_vm_readv", "pidfd_getfd", "kill"];

interface ChildReport {
  readonly results: Record<string, { ok?: unknown; errno?: number }>;
  readonly stderr: string;
}

function childReport(stdout: unknown, stderr: unknown): ChildReport {
  const text = typeof stdout === "string" ? stdout : "";
  const line = text.split("\nBRIDLE-RESULT ")[1]?.split("\n")[0] ?? "{}";
  return { results: JSON.parse(line), stderr: typeof stderr === "string" ? stderr : "" };
}

function reached(report: ChildReport): Record<string, number | "ok"> {
  const out: Record<string, number | "ok"> = {};
  for (const name of REACHES) {
    const p = report.results[name];
    out[name] = p === undefined ? -1 : p.errno !== undefined ? p.errno : "ok";
  }
  return out;
}

// The launcher is Linux-only (namespaces, Landlock, seccomp).
describe.skipIf(process.platform !== "linux")("kernel boundary: processes", () => {
  beforeAll(async () => {
    await setUpLauncher();
  });

  describe.each(modes)("as $name", (mode) => {
    it(`class 1 (/proc) as ${mode.name}: another process's environ, cmdline and memory are unreadable`, async () => {
      const f = fixture(mode);
      const inEnv = canary();
      const inArgv = canary();
      const env = { PATH: "/usr/bin:/bin", BRIDLE_HOLDER_SECRET: inEnv };
      const holder = hostProcess(mode, [PYTHON, "-c", HOLDER, inArgv], env);
      await once(holder.stdout as NodeJS.ReadableStream, "data");
      const args = { holder: holder.pid, test: process.pid, scan: true };

      // Control: unconfined, the same scan finds both secrets of the holder.
      const host = await unconfined(mode, SCAN, { ...args, scan: false });
      expectRan(host);
      expect(value(host, "holder-environ")).toContain(inEnv);
      expect(value(host, "holder-cmdline")).toContain(inArgv);
      expect(value(host, "holder-mem")).toContain(inEnv);

      const state = hostState();
      const tree = snapshot([f.base], [f.write]);
      const own = { BRIDLE_OWN: f.control };
      const secrets = [inEnv, inArgv, ...f.canaries];
      // The funnel's policy (/proc/self), then one granting all of /proc to Landlock: the
      // PID namespace, not only Landlock, keeps the host's processes out of sight.
      const wideProc = {
        read: [...RUNTIME_READ.filter((p) => p !== "/proc/self"), "/proc", f.read],
      };
      for (const policy of [funnelPolicy(f), funnelPolicy(f, wideProc)]) {
        const a = await attack(mode, policy, SCAN, args, { env: own });
        expectContained(a, secrets);
        const probes = outcomes(a, ["holder-environ", "holder-cmdline", "holder-mem"]);
        for (const outcome of Object.values(probes)) expect(outcome).not.toBe("ok");
        expect(outcomes(a, ["test-environ", "test-cmdline"])).not.toContain("ok");
        expect(value(a, "self-environ")).toContain(f.control); // control: its own is readable
        expect(value(a, "self-mem")).toContain(f.control);
      }
      const wide = await attack(mode, funnelPolicy(f, wideProc), SCAN, args, { env: own });
      expect(value(wide, "pids")).toEqual([1]); // the call's own PID namespace: itself only
      expect(value(wide, "listing")).toEqual(["1"]);
      expect(hostState()).toEqual(state);
      expect(snapshot([f.base], [f.write])).toEqual(tree);
    });

    it(`class 2 (ptrace) as ${mode.name}: a nested program cannot trace, read or signal its engine`, async () => {
      const f = fixture(mode);
      const secret = canary();
      const launcher = launcherBinary();
      const policy = funnelPolicy(f, { read: [...RUNTIME_READ, f.read, launcher] });
      const nest = [launcher, "--nest", PYTHON, "--", "python3"];
      const engine = (wrap: string[], engineSecret: string) => ({
        args: { wrap, prelude: PRELUDE, attacker: ATTACKER, own: f.control },
        env: { BRIDLE_ENGINE_SECRET: engineSecret },
      });

      // Control 1: unconfined, the same attacker gets everything from its parent.
      const open = canary("CONTROL");
      const hostRun = engine([PYTHON], open);
      const host = await unconfined(mode, ENGINE, hostRun.args, { env: hostRun.env });
      expectRan(host);
      const hostChild = childReport(value(host, "child-stdout"), value(host, "child-stderr"));
      expect(reached(hostChild), hostChild.stderr).toEqual(
        Object.fromEntries(REACHES.map((r) => [r, "ok"])),
      );
      expect(JSON.stringify(hostChild.results)).toContain(`ENGINE-MEMORY:${open}`);
      expect(JSON.stringify(hostChild.results)).toContain(`ENGINE-CHANNEL:${open}`);
      expect(value(host, "signaled")).toBe(1);

      const state = hostState();
      const tree = snapshot([f.base], [f.write]);

      // Control 2: in the call but not nested, /proc of the engine is the call's own (the
      // syscalls stay refused by seccomp for everyone in the call).
      const flat = engine([PYTHON], open);
      const inCall = await attack(mode, policy, ENGINE, flat.args, { env: flat.env });
      expectContained(inCall, f.canaries);
      const flatChild = childReport(value(inCall, "child-stdout"), value(inCall, "child-stderr"));
      expect(reached(flatChild), flatChild.stderr).toEqual({
        environ: "ok",
        mem: "ok",
        fd: "ok",
        ptrace: EPERM,
        process_vm_readv: EPERM,
        pidfd_getfd: EPERM,
        kill: "ok",
      });
      expect(JSON.stringify(flatChild.results)).toContain(`ENGINE-MEMORY:${open}`);

      // The attack: nested, nothing of the engine is reachable — under the funnel's policy,
      // and under one granting all of /proc to Landlock, where only the nest's own domain
      // stands between the program and its engine (and its own /proc stays readable).
      const nested = engine(nest, secret);
      const wholeProc = [...RUNTIME_READ.filter((p) => p !== "/proc/self"), "/proc"];
      const wide = funnelPolicy(f, { read: [...wholeProc, f.read, launcher] });
      for (const confined of [policy, wide]) {
        const a = await attack(mode, confined, ENGINE, nested.args, { env: nested.env });
        expectContained(a, [secret, ...f.canaries]);
        const child = childReport(value(a, "child-stdout"), value(a, "child-stderr"));
        expect(reached(child), child.stderr).toEqual({
          environ: EACCES,
          mem: EACCES,
          fd: EACCES,
          ptrace: EPERM,
          process_vm_readv: EPERM,
          pidfd_getfd: EPERM,
          kill: EPERM,
        });
        expect(value(a, "signaled")).toBe(0);
        if (confined === wide) {
          expect(child.results["own-environ"]?.ok).toContain(f.control);
          expect(child.results["own-mem"]?.ok).toBe("OWN-MEMORY");
        }
      }
      expect(hostState()).toEqual(state);
      expect(snapshot([f.base], [f.write])).toEqual(tree);
    });
  });
});
