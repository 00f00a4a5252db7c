// Kernel boundary, class 5 (kernel-boundary.md §1.4, §2 "capabilities"): also as root, a
// call holds no capability and cannot change or read host state — hostname, interfaces,
// SysV IPC, keyrings, device nodes, the kernel log, mounts, time. Reads of host objects
// made for the test (a shared memory segment, a key, a kernel log line, each holding a
// canary) have their positive control in the same probe run unconfined.
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  attack,
  canary,
  DEVICE_SINKS,
  expectContained,
  expectRan,
  FIXTURE_IPC_PREFIX,
  fixture,
  funnelPolicy,
  hostPython,
  hostState,
  isRoot,
  type Mode,
  modes,
  onCleanup,
  outcomes,
  RUNTIME_READ,
  setUpLauncher,
  snapshot,
  unconfined,
  value,
} from "./kit.js";

const EPERM = 1;
const ENOENT = 2;
const EINVAL = 22;
const ENOSYS = 38;
const EACCES = 13;
const EROFS = 30;

const HOST_SHM = `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
data = sys.argv[2].encode()
shmid = libc.shmget(int(sys.argv[1]), 4096, 0o1000 | 0o666)
addr = libc.shmat(shmid, None, 0)
ctypes.memmove(addr, data, len(data))
libc.shmdt(ctypes.c_void_p(addr))
print(shmid)
`;
const HOST_KEY = `
import ctypes, platform, sys
libc = ctypes.CDLL(None, use_errno=True)
nr = {"x86_64": 248, "aarch64": 217}[platform.machine()]
payload = sys.argv[2].encode()
key = libc.syscall(ctypes.c_long(nr), b"user", sys.argv[1].encode(), payload, ctypes.c_long(len(payload)), ctypes.c_long(-4))
if key < 0:
    raise SystemExit("add_key: errno %d" % ctypes.get_errno())
print(key)
`;
const HOST_UNKEY = `
import ctypes, platform, sys
libc = ctypes.CDLL(None, use_errno=True)
nr = {"x86_64": 250, "aarch64": 219}[platform.machine()]
libc.syscall(ctypes.c_long(nr), ctypes.c_long(21), ctypes.c_long(int(sys.argv[1])))  # KEYCTL_INVALIDATE
`;
const HOST_UNSHM = `
import ctypes, sys
ctypes.CDLL(None).shmctl(int(sys.argv[1]), 0, None)  # IPC_RMID
`;

// Reads of the host objects: run confined (must fail) and unconfined (the control).
const READS = `
def shm_read(shmid):
    libc.shmat.restype = ctypes.c_void_p
    addr = c("shmat", shmid, None, 0o10000, restype=ctypes.c_void_p)  # SHM_RDONLY
    return ctypes.string_at(addr, 64).rstrip(b"\\0")

def shm_scan():
    found = []
    buf = ctypes.create_string_buffer(512)
    for index in range(0, 4096):
        shmid = libc.shmctl(index, 13, buf)  # SHM_STAT
        if shmid >= 0:
            found.append(shm_read(shmid))
    return found

def key_read(key):
    buf = ctypes.create_string_buffer(256)
    n = sc("keyctl", 11, key, buf, 256)  # KEYCTL_READ
    return buf.raw[:n]

def kmsg():
    buf = ctypes.create_string_buffer(1 << 20)
    n = c("klogctl", 3, buf, 1 << 20)  # SYSLOG_ACTION_READ_ALL
    return [l for l in buf.raw[:n].split(b"\\n") if b"bridle-boundary" in l]

probe("shm-by-id", lambda: shm_read(ARGS["shmid"]))
probe("shm-by-key", lambda: shm_read(c("shmget", ARGS["shmkey"], 0, 0)))
if ARGS["scan"]:  # confined only: unconfined, the control reads the fixtures alone
    probe("shm-scan", shm_scan)
probe("key-by-id", lambda: key_read(ARGS["key"]))
probe("key-search", lambda: key_read(sc("keyctl", 10, -4, b"user", ARGS["keydesc"].encode(), 0)))
probe("klogctl", kmsg)
probe("proc-keys", lambda: read("/proc/keys"))
probe("dev-kmsg", lambda: read_once("/dev/kmsg"))
probe("proc-kmsg", lambda: read_once("/proc/kmsg"))
probe("proc-kcore", lambda: read_once("/proc/kcore", 64))
probe("proc-key-users", lambda: read("/proc/key-users"))
probe("proc-sysvipc", lambda: [l for l in read("/proc/sysvipc/shm").split(b"\\n") if str(ARGS["shmkey"]).encode() in l])
if ARGS["scan"]:
    probe("proc-net-unix", lambda: read("/proc/net/unix"))
`;

// Changes of host state, and the call's own objects (positive controls).
const CHANGES = `
import fcntl, socket, stat, struct, time
W = ARGS["write"]
status = read("/proc/self/status").decode()
probe("status", lambda: {l.split(":")[0]: l.split()[1] for l in status.splitlines()
                         if l.startswith(("Cap", "NoNewPrivs", "Seccomp:"))})
probe("sethostname", lambda: socket.sethostname("bridle-evil"))
probe("setdomainname", lambda: c("setdomainname", b"bridle-evil", 11))
x, _ = socket.socketpair()
probe("lo-mtu", lambda: fcntl.ioctl(x, 0x8922, struct.pack("16si20x", b"lo", 1280)))  # SIOCSIFMTU
probe("lo-down", lambda: fcntl.ioctl(x, 0x8914, struct.pack("16sh22x", b"lo", 0)))  # SIOCSIFFLAGS
probe("if-rename", lambda: fcntl.ioctl(x, 0x8923, struct.pack("16s16s8x", b"lo", b"evil0")))  # SIOCSIFNAME
probe("if-list", lambda: sorted(os.listdir("/sys/class/net")))
probe("netlink-route", lambda: socket.socket(16, socket.SOCK_RAW, 0))  # RTM_NEWLINK's way in
probe("add_key", lambda: sc("add_key", b"user", b"bridle-attack", b"x", 1, -4))
probe("request_key", lambda: sc("request_key", b"user", b"bridle-attack", None, -4))
probe("keyctl-session", lambda: sc("keyctl", 0, -3, 1))  # KEYCTL_GET_KEYRING_ID, create
probe("mknod-chr", lambda: os.mknod(W + "/null2", 0o666 | stat.S_IFCHR, os.makedev(1, 3)))
probe("mknod-blk", lambda: os.mknod(W + "/disk", 0o666 | stat.S_IFBLK, os.makedev(254, 0)))
probe("kmsg-write", lambda: write("/dev/kmsg", "bridle-boundary: attack"))
probe("syslog-size", lambda: sc("syslog", 10, None, 0))  # SYSLOG_ACTION_SIZE_BUFFER
probe("mount-tmpfs", lambda: c("mount", b"none", W.encode(), b"tmpfs", 0, None))
probe("umount-usr", lambda: c("umount2", b"/usr", 2))
probe("fsopen", lambda: sc("fsopen", b"tmpfs", 0))
probe("open_tree", lambda: sc("open_tree", -100, b"/usr", 1))
probe("unshare-mount", lambda: c("unshare", 0x00020000))
probe("unshare-user", lambda: c("unshare", 0x10000000))
probe("unshare-net", lambda: c("unshare", 0x40000000))
probe("chroot", lambda: os.chroot(W))
probe("clock_settime", lambda: time.clock_settime(time.CLOCK_REALTIME, time.time()))
probe("settimeofday", lambda: c("settimeofday", struct.pack("ll", int(time.time()), 0), None))
probe("adjtimex", lambda: c("adjtimex", ctypes.create_string_buffer(256)))
probe("perf_event_open", lambda: sc("perf_event_open", ctypes.create_string_buffer(128), 0, -1, -1, 0))
probe("bpf", lambda: sc("bpf", 0, ctypes.create_string_buffer(128), 128))
probe("userfaultfd", lambda: sc("userfaultfd", 0))
probe("io_uring_setup", lambda: sc("io_uring_setup", 1, ctypes.create_string_buffer(120)))
probe("clone3", lambda: sc("clone3", ctypes.create_string_buffer(88), 88))
probe("tiocsti", lambda: fcntl.ioctl(0, 0x5412, b"x"))  # TIOCSTI: type into a terminal
probe("tioclinux", lambda: fcntl.ioctl(0, 0x541C, b"\x0b"))  # TIOCLINUX

# The call's own objects: allowed, and gone with the call.
def own_shm(key):
    shmid = c("shmget", key, 4096, 0o1000 | 0o666)
    libc.shmat.restype = ctypes.c_void_p
    addr = c("shmat", shmid, None, 0, restype=ctypes.c_void_p)
    ctypes.memmove(addr, b"own segment", 11)
    return ctypes.string_at(addr, 11)
probe("own-shm", lambda: own_shm(ARGS["ownkey"]))
probe("own-shm-private", lambda: c("shmget", 0, 4096, 0o1000 | 0o600) >= 0)
probe("own-msg", lambda: c("msgget", ARGS["ownkey"], 0o1000 | 0o666) >= 0)
probe("own-sem", lambda: c("semget", ARGS["ownkey"], 1, 0o1000 | 0o666) >= 0)
probe("own-fifo", lambda: os.mknod(W + "/fifo", 0o666 | stat.S_IFIFO))
probe("own-dev-shm", lambda: write("/dev/shm/" + ARGS["shmname"], "x"))
probe("hostname", socket.gethostname)
`;

// Host-wide sysctls that check no capability, only uid 0 and the file mode: each is
// written with the value the host has, so a hole shows in the answer and changes nothing.
const SYSCTLS = `
for name, current in ARGS["sysctls"].items():
    probe(name, lambda: write("/proc/sys/" + name, current, os.O_WRONLY))
`;

interface Keys {
  readonly keys: string[];
  readonly keyUsers: string[];
}

/** /proc/keys as the mode's user and as root (stable fields), /proc/key-users (key counts). */
function keyState(mode: Mode): Keys {
  const stable = (text: string) =>
    text
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [id, , , , perm, uid, gid, type, ...rest] = line.trim().split(/\s+/);
        return [id, perm, uid, gid, type, rest.join(" ").split(":")[0]].join(" ");
      })
      .sort();
  const asUser = hostPython(`print(open("/proc/keys").read(), end="")`, [], mode.wrap);
  const keyUsers = readFileSync("/proc/key-users", "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [uid, , keys] = line.trim().split(/\s+/);
      return `${uid} ${keys}`;
    })
    .sort();
  return { keys: [...stable(readFileSync("/proc/keys", "utf8")), ...stable(asUser)], keyUsers };
}

function randomKey(prefix: number): number {
  return (prefix | Math.floor(Math.random() * 0xffff)) >>> 0;
}

// The launcher is Linux-only (namespaces, capabilities, seccomp).
describe.skipIf(process.platform !== "linux")("kernel boundary: host state", () => {
  beforeAll(async () => {
    await setUpLauncher();
  });

  describe.each(modes)("as $name", (mode) => {
    it(`class 5 (host state) as ${mode.name}: no capability, and hostname, interfaces, IPC, keys, devices, kernel log, mounts and time stay the host's`, async () => {
      const f = fixture(mode);
      const inShm = canary();
      const inKey = canary();
      const inKmsg = canary();

      // Host objects holding canaries, owned by the attacker's own user.
      const shmkey = randomKey(FIXTURE_IPC_PREFIX);
      const shmid = Number(hostPython(HOST_SHM, [String(shmkey), inShm], mode.wrap));
      onCleanup(() => hostPython(HOST_UNSHM, [String(shmid)]));
      const keydesc = `bridle-boundary-fixture-${inKey.slice(-8)}`;
      const key = Number(hostPython(HOST_KEY, [keydesc, inKey], mode.wrap));
      onCleanup(() => hostPython(HOST_UNKEY, [String(key)], mode.wrap));
      if (isRoot) writeFileSync("/dev/kmsg", `bridle-boundary: ${inKmsg}\n`);
      const readArgs = { shmid, shmkey, key, keydesc, scan: true };

      // Controls: unconfined, the same reads find each canary (the kernel log only for
      // root: dmesg_restrict keeps it from other users anyway).
      const host = await unconfined(mode, READS, { ...readArgs, scan: false });
      expectRan(host);
      expect(value(host, "shm-by-id")).toBe(inShm);
      expect(value(host, "shm-by-key")).toBe(inShm);
      expect(value(host, "key-by-id")).toBe(inKey);
      expect(value(host, "key-search")).toBe(inKey);
      if (mode.name === "root") expect(JSON.stringify(value(host, "klogctl"))).toContain(inKmsg);

      const state = hostState(true);
      const keys = keyState(mode);
      const tree = snapshot([f.base], [f.write]);
      const devShm = readdirSync("/dev/shm");
      const secrets = [inShm, inKey, inKmsg, ...f.canaries];

      // The funnel's policy, then one granting all of /proc to Landlock: the namespaces,
      // the masks and seccomp, not only Landlock, keep the host's objects out of reach.
      expect(JSON.stringify(value(host, "proc-sysvipc"))).toContain(String(shmkey));
      const hostSockets = readFileSync("/proc/net/unix", "utf8")
        .split("\n")
        .map((line) => line.trim().split(/\s+/)[7] ?? "")
        .filter((path) => path.startsWith("/"));
      const wholeProc = [...RUNTIME_READ.filter((p) => p !== "/proc/self"), "/proc", f.read];
      for (const policy of [funnelPolicy(f), funnelPolicy(f, { read: wholeProc })]) {
        const reads = await attack(mode, policy, READS, readArgs);
        expectContained(reads, secrets);
        expect(
          outcomes(reads, [
            "shm-by-id",
            "shm-by-key",
            "shm-scan",
            "key-by-id",
            "key-search",
            "klogctl",
            "proc-keys",
            "proc-key-users",
            "dev-kmsg",
          ]),
        ).toEqual({
          "shm-by-id": EINVAL, // the call's own IPC namespace
          "shm-by-key": ENOENT,
          "shm-scan": "ok",
          "key-by-id": EPERM, // seccomp: no keyctl
          "key-search": EPERM,
          klogctl: EPERM, // seccomp: no syslog
          "proc-keys": "ok", // masked: an empty file
          "proc-key-users": "ok",
          "dev-kmsg": ENOENT, // the minimal /dev
        });
        expect(value(reads, "shm-scan")).toEqual([]);
        expect(value(reads, "proc-keys")).toBe("");
        expect(value(reads, "proc-key-users")).toBe("");
        expect(outcomes(reads, ["proc-kmsg", "proc-kcore"])).not.toContain("ok");
        expect(JSON.stringify(value(reads, "proc-sysvipc") ?? null)).not.toContain(String(shmkey));
        const unix = String(value(reads, "proc-net-unix") ?? "");
        for (const path of hostSockets) expect(unix).not.toContain(path);
      }

      const shmname = `bridle-boundary-${shmkey.toString(16)}`;
      const ownkey = randomKey(0x41000000);
      // /dev/shm granted too: the call's own tmpfs, which the host's never sees.
      const shmWritable = funnelPolicy(f, { write: [f.write, "/dev/shm", ...DEVICE_SINKS] });
      const changes = await attack(mode, shmWritable, CHANGES, {
        write: f.write,
        ownkey,
        shmname,
      });
      expectContained(changes, secrets);
      expect(value(changes, "status")).toEqual({
        CapInh: "0000000000000000",
        CapPrm: "0000000000000000",
        CapEff: "0000000000000000",
        CapBnd: "0000000000000000",
        CapAmb: "0000000000000000",
        NoNewPrivs: "1",
        Seccomp: "2",
      });
      expect(
        outcomes(changes, [
          "sethostname",
          "setdomainname",
          "lo-mtu",
          "lo-down",
          "if-rename",
          "if-list",
          "netlink-route",
          "add_key",
          "request_key",
          "keyctl-session",
          "mknod-chr",
          "mknod-blk",
          "kmsg-write",
          "syslog-size",
          "mount-tmpfs",
          "umount-usr",
          "fsopen",
          "open_tree",
          "unshare-mount",
          "unshare-user",
          "unshare-net",
          "chroot",
          "clock_settime",
          "settimeofday",
          "adjtimex",
          "perf_event_open",
          "bpf",
          "userfaultfd",
          "io_uring_setup",
          "clone3",
          "tiocsti",
          "tioclinux",
        ]),
      ).toEqual({
        sethostname: EPERM,
        setdomainname: EPERM,
        "lo-mtu": EPERM,
        "lo-down": EPERM,
        "if-rename": EPERM,
        "if-list": ENOENT, // no /sys in the view
        "netlink-route": 97, // EAFNOSUPPORT
        add_key: EPERM,
        request_key: EPERM,
        "keyctl-session": EPERM,
        "mknod-chr": EPERM,
        "mknod-blk": EPERM,
        "kmsg-write": EACCES, // no /dev/kmsg, and /dev is not writable
        "syslog-size": EPERM,
        "mount-tmpfs": EPERM,
        "umount-usr": EPERM,
        fsopen: EPERM,
        open_tree: EPERM,
        "unshare-mount": EPERM,
        "unshare-user": EPERM,
        "unshare-net": EPERM,
        chroot: EPERM,
        clock_settime: EPERM,
        settimeofday: EPERM,
        adjtimex: EPERM,
        perf_event_open: EPERM,
        bpf: EPERM,
        userfaultfd: EPERM,
        io_uring_setup: ENOSYS,
        clone3: ENOSYS,
        tiocsti: EPERM,
        tioclinux: EPERM,
      });
      // Positive controls: the call's own IPC objects, FIFO and /dev/shm work.
      expect(value(changes, "own-shm")).toBe("own segment");
      expect(
        outcomes(changes, ["own-shm-private", "own-msg", "own-sem", "own-fifo", "own-dev-shm"]),
      ).toEqual({
        "own-shm-private": "ok",
        "own-msg": "ok",
        "own-sem": "ok",
        "own-fifo": "ok",
        "own-dev-shm": "ok",
      });
      expect(lstatSync(join(f.write, "fifo")).isFIFO()).toBe(true);
      expect(existsSync(join(f.write, "null2"))).toBe(false);
      expect(existsSync(join(f.write, "disk"))).toBe(false);

      // Global sysctls: Landlock refuses writes under fs_write restricted; with writes
      // left to the view (fs_write "all"), its /proc is read-only for root too.
      const sysctls: Record<string, string> = { "vm/drop_caches": "1" };
      for (const name of [
        "kernel/printk_ratelimit",
        "kernel/printk_ratelimit_burst",
        "kernel/pid_max",
        "vm/overcommit_ratio",
        "kernel/core_pattern",
      ]) {
        sysctls[name] = readFileSync(`/proc/sys/${name}`, "utf8");
      }
      const sysctlNames = Object.keys(sysctls);
      const viaLandlock = await attack(mode, funnelPolicy(f), SYSCTLS, { sysctls });
      expectContained(viaLandlock, secrets);
      for (const outcome of Object.values(outcomes(viaLandlock, sysctlNames))) {
        expect([EROFS, EACCES]).toContain(outcome);
      }
      const writesAll = funnelPolicy(f, { fsWrite: "all", write: [] });
      const viaView = await attack(mode, writesAll, SYSCTLS, { sysctls });
      expectContained(viaView, secrets);
      expect(Object.values(outcomes(viaView, sysctlNames))).toEqual(sysctlNames.map(() => EROFS));

      // Nothing of it reached the host: same hostname, interfaces, IPC objects (the
      // call's own died with its IPC namespace), mounts, keys, /dev/shm.
      expect(hostState(true)).toEqual(state);
      expect(keyState(mode)).toEqual(keys);
      expect(readdirSync("/dev/shm")).toEqual(devShm);
      expect(snapshot([f.base], [f.write])).toEqual(tree);
    });
  });
});
