// Kernel boundary, classes 11 and 12 (kernel-boundary.md §1.1, §1.7, §2 "a private view"):
// under fs_read "all" the view shows the host's tree less its blocked entries, and a
// masked secret stays unreadable by every means; outside the grant an existing and a
// missing path answer alike (ENOENT), so nothing learns which paths exist.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { LauncherPolicy } from "../../src/launcher/types.js";
import {
  attack,
  canary,
  DEVICE_SINKS,
  dir,
  expectContained,
  file,
  fixture,
  funnelPolicy,
  hostPython,
  hostState,
  modes,
  outcomes,
  RUNTIME_READ,
  settleTimes,
  setUpLauncher,
  snapshot,
  value,
} from "./kit.js";

const EPERM = 1;
const ENOENT = 2;

// Program and library trees shown under fs_read "all" (the host's other top-level entries
// — /etc, /var, /root, /home, /run, /srv, … — are blocked, as the default policy does).
const SHOWN = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"];
const PUBLIC_ETC = ["/etc/passwd", "/etc/group", "/etc/ld.so.cache", "/etc/ssl/certs"];

// Reads everything the view shows of the home, and reaches for what it hides.
const READ_ALL = `
def walk(top):
    seen = {}
    for root, dirs, files in os.walk(top):
        seen[root] = sorted(dirs + files)
        for name in files:
            probe("file:" + os.path.join(root, name), lambda: read(os.path.join(root, name)))
    return seen

def handle_read(handle):
    raw = bytes.fromhex(handle)
    buf = ctypes.create_string_buffer(raw, len(raw))
    mount_fd = os.open(ARGS["home"], os.O_RDONLY | os.O_DIRECTORY)
    return os.read(c("open_by_handle_at", mount_fd, buf, os.O_RDONLY), 200)

H = ARGS["home"]
probe("walk", lambda: walk(H))
probe("ssh-key", lambda: read(H + "/.ssh/id_ed25519"))
probe("aws", lambda: read(H + "/.aws/credentials"))
probe("by-handle", lambda: handle_read(ARGS["handle"]))
probe("umount", lambda: c("umount2", (H + "/.ssh").encode(), 2))
probe("root-list", lambda: sorted(os.listdir("/")))
probe("etc-list", lambda: sorted(os.listdir("/etc")))
probe("shadow", lambda: read("/etc/shadow"))
probe("ssl-private", lambda: os.listdir("/etc/ssl/private"))
probe("sys", lambda: os.listdir("/sys"))
probe("write", lambda: write(ARGS["write"] + "/out.txt", "written"))
`;

// Every way to ask about a path, for pairs of an existing and a missing path.
const ORACLE = `
def errno_of(fn):
    try:
        fn()
        return "ok"
    except OSError as e:
        return e.errno

def exec_errno(path):
    pid = os.fork()
    if pid == 0:
        try:
            os.execv(path, [path])
        except OSError as e:
            os._exit(e.errno)
        os._exit(0)
    err = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if err:
        raise OSError(err, "exec")

ops = {
    "open": lambda p: os.close(os.open(p, os.O_RDONLY)),
    "open-dir": lambda p: os.close(os.open(p, os.O_RDONLY | os.O_DIRECTORY)),
    "open-path": lambda p: os.close(os.open(p, os.O_PATH)),
    "create": lambda p: os.close(os.open(p + "/child", os.O_WRONLY | os.O_CREAT, 0o600)),
    "stat": lambda p: os.stat(p),
    "lstat": lambda p: os.lstat(p),
    "access": lambda p: c("access", p.encode(), 0),
    "listdir": lambda p: os.listdir(p),
    "readlink": lambda p: os.readlink(p),
    "chdir": lambda p: os.chdir(p),
    "mkdir": lambda p: os.mkdir(p + "/made"),
    "getxattr": lambda p: os.getxattr(p, "user.bridle"),
    "statvfs": lambda p: os.statvfs(p),
    "truncate": lambda p: os.truncate(p, 0),
    "utime": lambda p: os.utime(p),
    "exec": exec_errno,
}
for name, (present, absent) in ARGS["pairs"].items():
    for op, fn in ops.items():
        results["%s:%s:present" % (name, op)] = {"ok": errno_of(lambda: fn(present))}
        results["%s:%s:absent" % (name, op)] = {"ok": errno_of(lambda: fn(absent))}
os.chdir("/")
`;

// The launcher is Linux-only (namespaces, Landlock, seccomp).
describe.skipIf(process.platform !== "linux")("kernel boundary: the view", () => {
  beforeAll(async () => {
    await setUpLauncher();
  });

  describe.each(modes)("as $name", (mode) => {
    it(`class 11 (fs_read all) as ${mode.name}: masked secrets and /etc/shadow stay unreadable while everything else reads`, async () => {
      const f = fixture(mode);
      const home = dir(mode, join(f.base, "home"), 0o755);
      file(mode, join(home, "notes.txt"), `${f.control}\n`, 0o644);
      dir(mode, join(home, "project"), 0o755);
      file(mode, join(home, "project", "README"), "readme\n", 0o644);
      const ssh = dir(mode, join(home, ".ssh"), 0o700);
      const inSsh = canary();
      const key = file(mode, join(ssh, "id_ed25519"), `${inSsh}\n`, 0o600);
      const aws = dir(mode, join(home, ".aws"), 0o700);
      const inAws = canary();
      const credentials = file(mode, join(aws, "credentials"), `${inAws}\n`, 0o600);
      settleTimes(f.base);
      const handle = hostPython(
        `import ctypes, sys
libc = ctypes.CDLL(None)
buf = ctypes.create_string_buffer(136)
ctypes.memmove(buf, (128).to_bytes(4, "little"), 4)
libc.name_to_handle_at(-100, sys.argv[1].encode(), buf, ctypes.byref(ctypes.c_int()), 0)
print(buf.raw[:8 + int.from_bytes(buf.raw[:4], "little")].hex())`,
        [key],
      ).trim();
      const policy: LauncherPolicy = {
        fsRead: "all",
        fsWrite: "restricted",
        exec: "all",
        viewReadOnly: [...SHOWN.filter((p) => existsSync(p)), ...PUBLIC_ETC, home],
        write: [f.write, ...DEVICE_SINKS],
        mask: [ssh, credentials],
        netDenyAll: true,
        maxProcs: 64,
      };
      const state = hostState();
      const tree = snapshot([f.base], [f.write]);
      const a = await attack(mode, policy, READ_ALL, { home, write: f.write, handle });
      expectContained(a, [inSsh, inAws, ...f.canaries]);
      // Positive control: the rest of the home reads, the write root writes.
      expect(value(a, `file:${home}/notes.txt`)).toBe(`${f.control}\n`);
      expect(value(a, `file:${home}/project/README`)).toBe("readme\n");
      expect(outcomes(a, ["write"])).toEqual({ write: "ok" });
      // The masked entries: an empty directory, an empty file.
      const walk = value(a, "walk") as Record<string, string[]>;
      expect(walk[ssh]).toEqual([]);
      expect(value(a, "aws")).toBe("");
      expect(outcomes(a, ["ssh-key", "by-handle", "umount"])).toEqual({
        "ssh-key": ENOENT,
        "by-handle": EPERM,
        umount: EPERM,
      });
      // The blocked top-level trees are absent, /etc holds only its public files.
      const root = value(a, "root-list") as string[];
      for (const blocked of ["root", "home", "run", "srv", "boot", "sys", "mnt", "work"]) {
        expect(root).not.toContain(blocked);
      }
      expect(value(a, "etc-list")).toEqual(["group", "ld.so.cache", "passwd", "ssl"]);
      expect(outcomes(a, ["shadow", "ssl-private", "sys"])).toEqual({
        shadow: ENOENT,
        "ssl-private": ENOENT,
        sys: ENOENT,
      });
      expect(snapshot([f.base], [f.write])).toEqual(tree);
      expect(hostState()).toEqual(state);
    });

    it(`class 12 (existence oracle) as ${mode.name}: an existing and a missing path outside the grant answer alike`, async () => {
      const f = fixture(mode);
      const readable = (path: string) => existsSync(path);
      const pairs: Record<string, [string, string]> = {
        "outside-file": [join(f.outside, "secret.txt"), join(f.outside, "missing.txt")],
        "outside-dir": [f.outside, join(f.base, "missing-dir")],
        "outside-deep": [join(f.outside, "sub", "deep.txt"), join(f.outside, "sub", "missing.txt")],
        shadow: ["/etc/shadow", "/etc/missing-shadow"],
        "ssl-private": ["/etc/ssl/private", "/etc/ssl/missing-private"],
        root: ["/root", "/missing-root"],
        "var-lib": ["/var/lib", "/var/missing-lib"],
        home: ["/home", "/missing-home"],
      };
      for (const [name, [present, absent]] of Object.entries(pairs)) {
        expect(readable(present), `${name}: ${present} exists on the host`).toBe(true);
        expect(readable(absent), `${name}: ${absent} is missing on the host`).toBe(false);
      }
      // Control: inside the grant the same probes do tell the two apart.
      const control: Record<string, [string, string]> = {
        granted: [join(f.read, "visible.txt"), join(f.read, "missing.txt")],
      };
      const policy = funnelPolicy(f, { read: [...RUNTIME_READ, "/etc/ssl/certs", f.read] });
      const state = hostState();
      const tree = snapshot([f.base], [f.write]);
      const a = await attack(mode, policy, ORACLE, { pairs: { ...pairs, ...control } });
      expectContained(a, f.canaries);
      const answers = (name: string, side: "present" | "absent") =>
        Object.fromEntries(
          Object.entries(a.results)
            .filter(([key]) => key.startsWith(`${name}:`) && key.endsWith(`:${side}`))
            .map(([key, p]) => [key.split(":")[1], "ok" in p ? p.ok : p.errno]),
        );
      for (const name of Object.keys(pairs)) {
        const present = answers(name, "present");
        expect(Object.keys(present).length).toBeGreaterThan(10);
        expect(present, name).toEqual(answers(name, "absent"));
        for (const op of ["open", "stat", "lstat", "access", "listdir", "open-path", "exec"]) {
          expect(present[op], `${name}: ${op}`).toBe(ENOENT);
        }
      }
      const granted = answers("granted", "present");
      expect(granted.open).toBe("ok");
      expect(granted.stat).toBe("ok");
      expect(answers("granted", "absent").open).toBe(ENOENT);
      expect(snapshot([f.base], [f.write])).toEqual(tree);
      expect(hostState()).toEqual(state);
      expect(readdirSync(f.outside).sort()).toEqual(["secret.txt", "sub"]);
    });
  });
});
