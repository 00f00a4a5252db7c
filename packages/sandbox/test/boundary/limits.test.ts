// Kernel boundary, class 10 and the process tree (kernel-boundary.md §1.6): a call cannot
// exhaust the host beyond its limits — memory of the whole tree, the largest file, the
// process count, open files, its private /tmp and /dev/shm — nor outlive its launch.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import type { LauncherPolicy } from "../../src/launcher/types.js";
import {
  attack,
  expectContained,
  expectRan,
  fixture,
  funnelPolicy,
  hostState,
  launcherBinary,
  type Mode,
  modes,
  outcomes,
  RUNTIME_READ,
  setUpLauncher,
  snapshot,
  value,
} from "./kit.js";

const MiB = 1 << 20;

// Allocates (and touches) `mib` MiB in each of `procs` processes, then leaves a marker.
const ALLOCATE = `
import time
def hog():
    block = bytearray(ARGS["mib"] << 20)
    for i in range(0, len(block), 4096):
        block[i] = 1
    return block
children = []
for _ in range(ARGS["procs"] - 1):
    pid = os.fork()
    if pid == 0:
        held = hog()
        time.sleep(1)  # all of the tree holds its blocks at once
        os._exit(0)
    children.append(pid)
held = hog()
codes = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children]
probe("children", lambda: codes)
if all(code == 0 for code in codes):
    write(ARGS["marker"], "the whole tree held its memory")
probe("allocated", lambda: ARGS["mib"] * ARGS["procs"])
`;

// The starter holds more memory than its child has when the tree reaches the limit, so
// an OOM killer that goes by size alone would take the starter.
const STARTER = `
import subprocess
ballast = bytearray(ARGS["ballast"] << 20)
for i in range(0, len(ballast), 4096):
    ballast[i] = 1
hog = "b = bytearray(%d << 20)\\nfor i in range(0, len(b), 4096): b[i] = 1" % ARGS["mib"]
child = subprocess.Popen([sys.executable, "-c", hog])
probe("adj-self", lambda: read("/proc/self/oom_score_adj").strip().decode())
probe("child", lambda: child.wait())
write(ARGS["marker"], "the starter went on")
`;

const CAPS = `
import struct, subprocess, time
W = ARGS["write"]
def big_write():
    fd = os.open(W + "/big", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    chunk = b"x" * 65536
    try:
        for _ in range(ARGS["fsize"] * 2 // 65536):
            os.write(fd, chunk)
    finally:
        os.close(fd)
probe("fsize-python", big_write)  # python ignores SIGXFSZ: EFBIG
probe("fsize-dd", lambda: subprocess.run(["/usr/bin/dd", "if=/dev/zero", "of=" + W + "/dd", "bs=64k",
                                          "count=%d" % (ARGS["fsize"] * 2 // 65536)],
                                         stderr=subprocess.DEVNULL).returncode)
probe("fsize-control", lambda: write(W + "/small", b"y" * (ARGS["fsize"] // 2)))

def fork_bomb():
    made = 0
    try:
        for _ in range(4 * ARGS["procs"]):
            if os.fork() == 0:
                time.sleep(30)
                os._exit(0)
            made += 1
    except OSError as e:
        return {"made": made, "errno": e.errno}
    return {"made": made}
probe("procs", fork_bomb)

def open_many():
    fds = []
    try:
        while len(fds) < 4 * ARGS["nofile"]:
            fds.append(os.open("/dev/null", os.O_RDONLY))
    except OSError as e:
        return {"opened": len(fds), "errno": e.errno}
    return {"opened": len(fds)}
probe("nofile", open_many)
unlimited = struct.pack("QQ", 2**64 - 1, 2**64 - 1)
probe("raise-fsize", lambda: c("setrlimit", 1, unlimited))  # RLIMIT_FSIZE
probe("raise-nofile", lambda: c("setrlimit", 7, unlimited))  # RLIMIT_NOFILE
probe("raise-nproc", lambda: c("setrlimit", 6, unlimited))  # RLIMIT_NPROC
`;

// Fills the private /tmp and /dev/shm in files of 256 KiB.
const FILL = `
def fill(where):
    total = 0
    try:
        for i in range(4 * ARGS["tmpfs"] // (256 << 10)):
            total += write("%s/fill-%d" % (where, i), b"z" * (256 << 10))
    except OSError as e:
        return {"written": total, "errno": e.errno}
    return {"written": total}
probe("tmp", lambda: fill("/tmp"))
probe("shm", lambda: fill("/dev/shm"))
`;

// Leaves a double-forked, setsid'd daemon and a backgrounded shell job behind.
const DAEMON = `
import signal, subprocess, time
W, delay = ARGS["write"], ARGS["delay"]
def daemon():
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            time.sleep(delay)
            write(W + "/daemon-marker", "outlived the call")
            os._exit(0)
        os._exit(0)
    os.waitpid(pid, 0)
    return "detached"
probe("daemon", daemon)
probe("shell", lambda: subprocess.Popen(["/bin/sh", "-c", "(sleep %s; echo alive > %s/shell-marker) &" % (delay, W), TOKEN],
                                        start_new_session=True).wait())
time.sleep(ARGS["linger"])
`;

function probeAs(mode: Mode): { memory_limit: string; max_procs: string } {
  const [program, ...args] = [...mode.wrap, launcherBinary(), "--probe"];
  const result = spawnSync(program as string, args, { encoding: "utf8" });
  return JSON.parse(result.stdout) as { memory_limit: string; max_procs: string };
}

// The launcher is Linux-only (cgroups, rlimits, PID namespaces).
describe.skipIf(process.platform !== "linux")("kernel boundary: limits and lifetime", () => {
  beforeAll(async () => {
    await setUpLauncher();
  });

  describe.each(modes)("as $name", (mode) => {
    // The premise (a memory cgroup for the call) needs root here; a user without one has
    // the call refused in-band (125) rather than run unbounded.
    it(`class 10 (limits) as ${mode.name}: memory-max bounds the whole tree (killed with a memory cgroup, refused without)`, async () => {
      const f = fixture(mode);
      const marker = join(f.write, "marker");
      const policy = funnelPolicy(f, { memoryMax: 64 * MiB });
      const state = hostState();
      const hog = await attack(mode, policy, ALLOCATE, { mib: 512, procs: 1, marker });
      expect(existsSync(marker)).toBe(false);
      expect(hog.leftover).toEqual([]);
      if (probeAs(mode).memory_limit === "cgroup") {
        expect(hog.code).toBe(137); // SIGKILL by the OOM killer of the call's cgroup
        expect(hog.stderr.toString()).toMatch(/\nbridle-launch: limit exceeded: memory\n$/);
        // The whole tree: four processes of 32 MiB each never hold 128 MiB at once (the
        // OOM killer of the call's cgroup takes one of them, whichever it picks).
        const tree = await attack(mode, policy, ALLOCATE, { mib: 32, procs: 4, marker });
        expect(tree.stderr.toString()).toMatch(/bridle-launch: limit exceeded: memory\n$/);
        expect(existsSync(marker)).toBe(false);
        if (tree.code !== 137) expect(value(tree, "children")).toContain(-9);
        // Positive control: under the same limit, 16 MiB is fine.
        const fits = await attack(mode, policy, ALLOCATE, { mib: 16, procs: 1, marker });
        expectRan(fits);
        expect(value(fits, "allocated")).toBe(16);
        expect(existsSync(marker)).toBe(true);
      } else {
        expect(hog.code).toBe(125);
        expect(hog.stderr.toString()).toMatch(/^bridle-launch: memory: no writable cgroup\n$/);
        expect(hog.stdout.length).toBe(0); // nothing of the target ran
      }
      expect(hostState()).toEqual(state);
    });

    it(`class 10 (limits) as ${mode.name}: the OOM killer takes the program that ran the tree out of memory, not the one that started it (oom_score_adj 500 for every process the target starts)`, async (context) => {
      // Needs a memory cgroup for the call (root here); without one the call is refused (above).
      if (probeAs(mode).memory_limit !== "cgroup")
        context.skip("no memory cgroup for this user on this host");
      const f = fixture(mode);
      const marker = join(f.write, "marker");
      // The file-size limit makes the launcher trace the tree, which is how it sees new processes.
      const policy = funnelPolicy(f, { memoryMax: 64 * MiB, rlimitFsize: 64 * MiB });
      const a = await attack(mode, policy, STARTER, { ballast: 32, mib: 512, marker });
      expectRan(a);
      expect(value(a, "child")).toBe(-9); // the child, killed by the cgroup's OOM killer
      expect(value(a, "adj-self")).toBe("0");
      expect(readFileSync(marker, "utf8")).toBe("the starter went on");
      expect(a.stderr.toString()).toMatch(/bridle-launch: limit exceeded: memory\n$/);
      expect(a.leftover).toEqual([]);
    });

    it(`class 10 (limits) as ${mode.name}: file size, process count, open files and the private /tmp are capped`, async () => {
      const f = fixture(mode);
      const limits = { fsize: MiB, procs: 16, nofile: 64, tmpfs: 4 * MiB };
      const state = hostState();
      const tree = snapshot([f.base], [f.write]);
      const policy = funnelPolicy(f, {
        rlimitFsize: limits.fsize,
        maxProcs: limits.procs,
        rlimitNofile: limits.nofile,
      });
      const a = await attack(mode, policy, CAPS, { write: f.write, ...limits });
      expectContained(a, f.canaries);
      expect(outcomes(a, ["fsize-python"])).toEqual({ "fsize-python": 27 }); // EFBIG
      expect(value(a, "fsize-dd")).toBe(-25); // SIGXFSZ
      expect(lstatSync(join(f.write, "big")).size).toBe(limits.fsize);
      expect(lstatSync(join(f.write, "dd")).size).toBeLessThanOrEqual(limits.fsize);
      expect(lstatSync(join(f.write, "small")).size).toBe(limits.fsize / 2); // control
      const procs = value(a, "procs") as { made: number; errno?: number };
      expect(procs.errno).toBe(11); // EAGAIN
      expect(procs.made).toBeGreaterThanOrEqual(4); // control: forking works below the cap
      expect(procs.made).toBeLessThan(limits.procs);
      // The hard limits hold: no capability to raise them.
      expect(outcomes(a, ["raise-fsize", "raise-nofile", "raise-nproc"])).toEqual({
        "raise-fsize": 1,
        "raise-nofile": 1,
        "raise-nproc": 1,
      });
      const files = value(a, "nofile") as { opened: number; errno?: number };
      expect(files.errno).toBe(24); // EMFILE
      expect(files.opened).toBeGreaterThan(32);
      expect(files.opened).toBeLessThanOrEqual(limits.nofile);

      // The view's /tmp and /dev/shm are its own tmpfs, capped (writable where fs_write
      // leaves Landlock out of writes; the host's /tmp is never bound there).
      const fill: LauncherPolicy = {
        fsRead: "restricted",
        fsWrite: "all",
        exec: "all",
        read: [...RUNTIME_READ, f.read],
        netDenyAll: true,
        maxProcs: 64,
        tmpfsBytes: limits.tmpfs,
      };
      const hostTmp = readdirSync("/tmp");
      const filled = await attack(mode, fill, FILL, limits);
      expectContained(filled, f.canaries);
      for (const where of ["tmp", "shm"]) {
        const written = value(filled, where) as { written: number; errno?: number };
        expect(written.errno, where).toBe(28); // ENOSPC
        expect(written.written, where).toBeGreaterThanOrEqual(limits.tmpfs / 2); // control
        expect(written.written, where).toBeLessThanOrEqual(limits.tmpfs);
      }
      expect(readdirSync("/tmp").filter((name) => name.startsWith("fill-"))).toEqual(
        hostTmp.filter((name) => name.startsWith("fill-")),
      );
      expect(snapshot([f.base], [f.write])).toEqual(tree);
      expect(hostState()).toEqual(state);
    });

    it(`process tree as ${mode.name}: a double-forked daemon and a background job die with the call`, async () => {
      const killed = fixture(mode);
      const control = fixture(mode);
      const delay = 1.0;
      const started = Date.now();
      // The control lingers past the daemons' delay: proves they run and write markers.
      const [a, lingered] = await Promise.all([
        attack(mode, funnelPolicy(killed), DAEMON, { write: killed.write, delay, linger: 0 }),
        attack(mode, funnelPolicy(control), DAEMON, {
          write: control.write,
          delay,
          linger: delay + 0.8,
        }),
      ]);
      expectContained(a, killed.canaries);
      expect(outcomes(a, ["daemon", "shell"])).toEqual({ daemon: "ok", shell: "ok" });
      expect(a.code).toBe(0);
      expectContained(lingered, control.canaries);
      await sleep(Math.max(0, (delay + 0.8) * 1000 - (Date.now() - started)));
      expect(existsSync(join(control.write, "daemon-marker"))).toBe(true);
      expect(existsSync(join(control.write, "shell-marker"))).toBe(true);
      expect(existsSync(join(killed.write, "daemon-marker"))).toBe(false);
      expect(existsSync(join(killed.write, "shell-marker"))).toBe(false);
    });
  });
});
