// Kernel boundary, class 3 (kernel-boundary.md §1.2): nothing outside fs_write changes —
// not contents, names, nor metadata (mode, owner, times, extended attributes), by path or
// through a descriptor opened for reading. Landlock has no right for chmod, chown, utime
// or xattrs: the read-only binds of the private view are what refuse them (EROFS).
import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  attack,
  dir,
  expectContained,
  file,
  fixture,
  funnelPolicy,
  hostPython,
  hostState,
  modes,
  type Probe,
  settleTimes,
  setUpLauncher,
  setXattr,
  snapshot,
} from "./kit.js";

// Every metadata (and name) change there is, on each target, by path and by descriptor.
const METADATA = `
uid, gid = os.getuid(), os.getgid()

def via_fd(flags, fn):
    fd = os.open(P, flags)
    try:
        return fn(fd)
    finally:
        os.close(fd)

for name, P in ARGS["files"].items():
    probe(name + ":chmod", lambda: os.chmod(P, 0o600))
    probe(name + ":chown", lambda: os.chown(P, uid, gid))
    probe(name + ":lchown", lambda: os.lchown(P, uid, gid))
    probe(name + ":utime", lambda: os.utime(P, (0, 0)))
    probe(name + ":utime-now", lambda: os.utime(P))
    probe(name + ":setxattr", lambda: os.setxattr(P, "user.attack", b"1"))
    probe(name + ":removexattr", lambda: os.removexattr(P, "user.bridle"))
    probe(name + ":fchmod", lambda: via_fd(os.O_RDONLY, lambda fd: os.fchmod(fd, 0o600)))
    probe(name + ":fchown", lambda: via_fd(os.O_RDONLY, lambda fd: os.fchown(fd, uid, gid)))
    probe(name + ":futimens", lambda: via_fd(os.O_RDONLY, lambda fd: os.utime(fd, (0, 0))))
    probe(name + ":fsetxattr", lambda: via_fd(os.O_RDONLY, lambda fd: os.setxattr(fd, "user.fd", b"1")))
    probe(name + ":procfd-chmod", lambda: via_fd(os.O_PATH, lambda fd: os.chmod("/proc/self/fd/%d" % fd, 0o600)))
    probe(name + ":truncate", lambda: os.truncate(P, 0))
    probe(name + ":append", lambda: via_fd(os.O_WRONLY | os.O_APPEND, lambda fd: os.write(fd, b"x")))
    probe(name + ":link", lambda: os.link(P, P + ".link"))
    probe(name + ":symlink-over", lambda: os.symlink("/etc/passwd", P + ".sym"))
    probe(name + ":rename", lambda: os.rename(P, P + ".moved"))
    probe(name + ":unlink", lambda: os.unlink(P + ".link"))

for name, P in ARGS["dirs"].items():
    probe(name + ":chmod", lambda: os.chmod(P, 0o700))
    probe(name + ":chown", lambda: os.chown(P, uid, gid))
    probe(name + ":utime", lambda: os.utime(P, (0, 0)))
    probe(name + ":setxattr", lambda: os.setxattr(P, "user.attack", b"1"))
    probe(name + ":mkdir", lambda: os.mkdir(P + "/made"))
    probe(name + ":mkfifo", lambda: os.mkfifo(P + "/fifo"))
    probe(name + ":create", lambda: write(P + "/created", "x"))
    probe(name + ":rename", lambda: os.rename(P, P + ".moved"))
`;

// What may refuse: the view's read-only binds, the path's absence from the view, the
// cross-mount rules, a busy mount point — and, for a user who does not own it, DAC.
const REFUSALS = new Set([30 /* EROFS */, 2 /* ENOENT */, 18 /* EXDEV */, 16 /* EBUSY */, 1, 13]);

function split(results: Readonly<Record<string, Probe>>, prefixes: readonly string[]) {
  const ok: string[] = [];
  const refused: Record<string, number> = {};
  for (const [name, p] of Object.entries(results)) {
    if (!prefixes.some((prefix) => name.startsWith(`${prefix}:`))) continue;
    if ("ok" in p) ok.push(name);
    else refused[name] = p.errno;
  }
  return { ok, refused };
}

// The launcher is Linux-only (namespaces, Landlock, seccomp).
describe.skipIf(process.platform !== "linux")("kernel boundary: metadata", () => {
  beforeAll(async () => {
    await setUpLauncher();
  });

  describe.each(modes)("as $name", (mode) => {
    it(`class 3 (metadata) as ${mode.name}: chmod, chown, utime, xattrs and renames outside fs_write are refused`, async () => {
      const f = fixture(mode);
      const control = file(mode, join(f.write, "control.txt"), "control\n");
      setXattr(control, "user.bridle", "original");
      const controlDir = dir(mode, join(f.write, "control-dir"));
      settleTimes(f.base);
      const files = {
        "read-file": join(f.read, "target.txt"),
        "outside-file": join(f.outside, "secret.txt"),
        "outside-deep": join(f.outside, "sub", "deep.txt"),
        control,
      };
      const dirs = {
        "read-dir": f.read,
        "outside-dir": f.outside,
        "outside-sub": join(f.outside, "sub"),
        base: f.base,
        "control-dir": controlDir,
      };
      const state = hostState();
      const tree = snapshot([f.base], [f.write]);

      const a = await attack(mode, funnelPolicy(f), METADATA, { files, dirs });
      expectContained(a, f.canaries);

      const outside = split(a.results, [
        "read-file",
        "outside-file",
        "outside-deep",
        "read-dir",
        "outside-dir",
        "outside-sub",
        "base",
      ]);
      expect(outside.ok).toEqual([]);
      for (const [name, errno] of Object.entries(outside.refused)) {
        expect(REFUSALS.has(errno), `${name}: errno ${errno}`).toBe(true);
      }
      // By path or by descriptor, the read root answers "read-only file system".
      for (const op of ["chmod", "chown", "utime", "setxattr", "fchmod", "futimens", "fsetxattr"]) {
        expect(outside.refused[`read-file:${op}`], op).toBe(30);
      }
      expect(outside.refused["outside-file:chmod"]).toBe(2);

      // Positive control: the same program changes everything inside the write root.
      const inside = split(a.results, ["control", "control-dir"]);
      expect(inside.refused).toEqual({});
      const moved = `${control}.moved`;
      expect(existsSync(control)).toBe(false);
      expect(lstatSync(moved).mode & 0o7777).toBe(0o600);
      expect(lstatSync(moved).atimeMs).toBe(0);
      expect(lstatSync(moved).size).toBe(1);
      const xattrs = hostPython("import os, sys\nprint(sorted(os.listxattr(sys.argv[1])))", [
        moved,
      ]);
      expect(xattrs.trim()).toBe("['user.attack', 'user.fd']");
      expect(existsSync(`${controlDir}.moved/made`)).toBe(true);

      // Nothing outside the write root changed, down to the nanosecond and the xattrs.
      expect(snapshot([f.base], [f.write])).toEqual(tree);
      expect(hostState()).toEqual(state);
    });
  });
});
