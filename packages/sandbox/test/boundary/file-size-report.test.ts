// Kernel boundary, class 10: the file-size limit is reported whatever the writer does
// with SIGXFSZ (ADR 0021). The launcher traces its tree and names `file_size` on its
// trailer line when any process of it was sent SIGXFSZ: ignored (python's default),
// caught, blocked until exit, in a thread or a grandchild, for a write, a truncate or a
// fallocate. A run inside the limit has no trailer, and tracing changes nothing a
// program sees: signals are delivered, a stopped child stays stopped until SIGCONT.
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  attack,
  expectContained,
  fixture,
  funnelPolicy,
  hostState,
  modes,
  outcomes,
  setUpLauncher,
  snapshot,
  value,
} from "./kit.js";

const LIMIT = 1 << 20;
const TRAILER = /\nbridle-launch: limit exceeded: file_size\n$/;

const WRITERS = String.raw`
import signal, threading
W, LIMIT, how = ARGS["write"], ARGS["limit"], ARGS["how"]
def fill(path, total):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    n = 0
    try:
        while n < total:
            n += os.write(fd, b"x" * 65536)
        return n
    finally:
        os.close(fd)
def grow(path, how):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        return how(fd)
    finally:
        os.close(fd)
caught = []
if how == "catch":
    signal.signal(signal.SIGXFSZ, lambda sig, frame: caught.append(sig))
elif how == "block":
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGXFSZ})
elif how == "default-ignored":
    pass  # python ignores SIGXFSZ from its start
else:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
if how == "thread":
    box = {}
    def run():
        try:
            box["n"] = fill(W + "/big", 4 * LIMIT)
        except OSError as e:
            box["errno"] = e.errno
    t = threading.Thread(target=run)
    t.start()
    t.join()
    probe("x:write", lambda: box["n"] if "n" in box else (_ for _ in ()).throw(OSError(box["errno"], "thread")))
elif how == "grandchild":
    pid = os.fork()
    if pid == 0:
        try:
            fill(W + "/big", 4 * LIMIT)
        except OSError:
            os._exit(27)
        os._exit(0)
    probe("x:write", lambda: os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
elif how == "truncate":
    probe("x:write", lambda: grow(W + "/big", lambda fd: os.ftruncate(fd, 2 << 30)))
elif how == "fallocate":
    probe("x:write", lambda: grow(W + "/big", lambda fd: os.posix_fallocate(fd, 0, 64 << 20)))
elif how == "control":
    probe("ctl:write", lambda: fill(W + "/big", LIMIT // 2))
else:
    probe("x:write", lambda: fill(W + "/big", 4 * LIMIT))
probe("caught", lambda: len(caught))
`;

// A child stops itself and is continued; a caught SIGUSR1 arrives: tracing is invisible.
const SIGNALS = String.raw`
import signal, time
got = []
signal.signal(signal.SIGUSR1, lambda sig, frame: got.append(sig))
os.kill(os.getpid(), signal.SIGUSR1)
probe("usr1", lambda: got)
pid = os.fork()
if pid == 0:
    os.kill(os.getpid(), signal.SIGSTOP)
    os._exit(7)
def stopped():
    _, status = os.waitpid(pid, os.WUNTRACED)
    return os.WIFSTOPPED(status) and os.WSTOPSIG(status) == signal.SIGSTOP
probe("stopped", stopped)
def still_stopped():
    time.sleep(0.2)
    return os.waitpid(pid, os.WNOHANG)
probe("still-stopped", still_stopped)
os.kill(pid, signal.SIGCONT)
probe("exit", lambda: os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
`;

const HITS = [
  "ignore",
  "default-ignored",
  "catch",
  "block",
  "thread",
  "grandchild",
  "truncate",
  "fallocate",
] as const;

describe.skipIf(process.platform !== "linux")(
  "kernel boundary: the file-size limit is reported whatever the writer does with SIGXFSZ",
  () => {
    beforeAll(async () => {
      await setUpLauncher();
    });

    describe.each(modes)("as $name", (mode) => {
      it.each(HITS)(
        `%s: the write fails, the file stops at the limit, the trailer names file_size (${mode.name})`,
        async (how) => {
          const f = fixture(mode);
          const state = hostState();
          const outside = snapshot([f.base], [f.write]);
          const a = await attack(mode, funnelPolicy(f, { rlimitFsize: LIMIT }), WRITERS, {
            write: f.write,
            limit: LIMIT,
            how,
          });
          expectContained(a, f.canaries);
          expect(a.stderr.toString("latin1")).toMatch(TRAILER);
          if (how === "grandchild") expect(value(a, "x:write")).toBe(27);
          else expect(outcomes(a, ["x:write"])).toEqual({ "x:write": 27 }); // EFBIG
          expect(value(a, "caught")).toBe(how === "catch" ? 1 : 0);
          expect(lstatSync(join(f.write, "big")).size).toBeLessThanOrEqual(LIMIT);
          expect(snapshot([f.base], [f.write])).toEqual(outside);
          expect(hostState()).toEqual(state);
        },
      );

      it(`control: a write inside the limit has no trailer (${mode.name})`, async () => {
        const f = fixture(mode);
        const a = await attack(mode, funnelPolicy(f, { rlimitFsize: LIMIT }), WRITERS, {
          write: f.write,
          limit: LIMIT,
          how: "control",
        });
        expectContained(a, f.canaries);
        expect(value(a, "ctl:write")).toBe(LIMIT / 2);
        expect(lstatSync(join(f.write, "big")).size).toBe(LIMIT / 2);
        expect(a.stderr.toString("latin1")).toBe("");
        expect(a.code).toBe(0);
      });

      it(`tracing is invisible: a caught signal arrives, a stopped child stays stopped until SIGCONT (${mode.name})`, async () => {
        const f = fixture(mode);
        const a = await attack(mode, funnelPolicy(f, { rlimitFsize: LIMIT }), SIGNALS);
        expectContained(a, f.canaries);
        expect(value(a, "usr1")).toEqual([10]);
        expect(value(a, "stopped")).toBe(true);
        expect(value(a, "still-stopped")).toEqual([0, 0]);
        expect(value(a, "exit")).toBe(7);
        expect(a.stderr.toString("latin1")).toBe("");
      });
    });
  },
);
