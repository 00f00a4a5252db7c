// Kernel boundary, classes 6, 7 and 8 (kernel-boundary.md §1.1): nothing outside fs_read
// is readable — not a masked directory by file handle, not a write-only root, not the
// secrets that sit next to the runtime closure (/etc/shadow, /etc/ssl/private).
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  attack,
  canary,
  DEVICE_SINKS,
  dir,
  expectContained,
  expectRan,
  file,
  fixture,
  funnelPolicy,
  hostPython,
  hostState,
  isRoot,
  modes,
  onCleanup,
  outcomes,
  RUNTIME_READ,
  settleTimes,
  setUpLauncher,
  snapshot,
  unconfined,
  value,
} from "./kit.js";

const EPERM = 1;
const ENOENT = 2;
const EACCES = 13;

// struct file_handle of a path, as hex (name_to_handle_at needs no capability).
const HANDLE_OF = `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(8 + 128)
ctypes.memmove(buf, (128).to_bytes(4, "little"), 4)
mount_id = ctypes.c_int()
if libc.name_to_handle_at(-100, sys.argv[1].encode(), buf, ctypes.byref(mount_id), 0) != 0:
    raise SystemExit("name_to_handle_at: errno %d" % ctypes.get_errno())
size = int.from_bytes(buf.raw[:4], "little")
print(buf.raw[:8 + size].hex())
`;

const HANDLES = `
def by_handle(handle, directory=False):
    raw = bytes.fromhex(handle)
    buf = ctypes.create_string_buffer(raw, len(raw))
    mount_fd = os.open(ARGS["mount"], os.O_RDONLY | os.O_DIRECTORY)
    fd = c("open_by_handle_at", mount_fd, buf, os.O_RDONLY | (os.O_DIRECTORY if directory else 0))
    return os.listdir(fd) if directory else os.read(fd, 200)

def handle_of(path):
    buf = ctypes.create_string_buffer(8 + 128)
    ctypes.memmove(buf, (128).to_bytes(4, "little"), 4)
    mount_id = ctypes.c_int()
    c("name_to_handle_at", -100, path.encode(), buf, ctypes.byref(mount_id), 0)
    return buf.raw[:8].hex()

probe("by-handle:masked-file", lambda: by_handle(ARGS["maskedFile"]))
probe("by-handle:masked-dir", lambda: by_handle(ARGS["maskedDir"], True))
probe("by-handle:outside-file", lambda: by_handle(ARGS["outsideFile"]))
probe("name_to_handle_at", lambda: handle_of(ARGS["visible"]))
probe("masked-list", lambda: os.listdir(ARGS["masked"]))
probe("masked-read", lambda: read(ARGS["masked"] + "/key.pem"))
probe("umount-mask", lambda: c("umount2", ARGS["masked"].encode(), 2))
probe("visible", lambda: read(ARGS["visible"]))
`;

const WRITE_ONLY = `
W = ARGS["root"]
probe("read-existing", lambda: read(W + "/secret.txt"))
probe("list", lambda: os.listdir(W))
probe("write-new", lambda: write(W + "/new.txt", "written by the call"))
probe("read-back", lambda: read(W + "/new.txt"))
probe("append-existing", lambda: write(W + "/secret.txt", "+", os.O_WRONLY | os.O_APPEND))
`;

const CLOSURE = `
probe("shadow", lambda: read("/etc/shadow"))
probe("gshadow", lambda: read("/etc/gshadow"))
probe("shadow-stat", lambda: os.stat("/etc/shadow") and "exists")
probe("private-list", lambda: os.listdir("/etc/ssl/private"))
probe("private-key", lambda: read(ARGS["key"]))
probe("etc-list", lambda: os.listdir("/etc"))
probe("passwd", lambda: b"root:x:0:0:" in read("/etc/passwd"))
probe("certs", lambda: len(os.listdir("/etc/ssl/certs")) > 0)
probe("cert", lambda: read("/etc/ssl/certs/" + sorted(os.listdir("/etc/ssl/certs"))[0], 64) != b"")
`;

// The launcher is Linux-only (namespaces, Landlock, seccomp).
describe.skipIf(process.platform !== "linux")("kernel boundary: reads", () => {
  beforeAll(async () => {
    await setUpLauncher();
  });

  describe.each(modes)("as $name", (mode) => {
    it(`class 6 (file handles) as ${mode.name}: open_by_handle_at reaches neither a masked directory nor a file outside the view`, async () => {
      const f = fixture(mode);
      const inMask = canary();
      const masked = dir(mode, join(f.read, ".ssh"), 0o755);
      const key = file(mode, join(masked, "key.pem"), `${inMask}\n`, 0o644);
      settleTimes(f.base);
      const args = {
        mount: f.read,
        masked,
        visible: join(f.read, "visible.txt"),
        maskedFile: hostPython(HANDLE_OF, [key]).trim(),
        maskedDir: hostPython(HANDLE_OF, [masked]).trim(),
        outsideFile: hostPython(HANDLE_OF, [join(f.outside, "secret.txt")]).trim(),
      };
      // Control: unconfined, root (CAP_DAC_READ_SEARCH) reads both files by their handles;
      // for any other user the kernel refuses open_by_handle_at already.
      const host = await unconfined(mode, HANDLES, args);
      expectRan(host);
      if (mode.name === "root") {
        expect(value(host, "by-handle:masked-file")).toBe(`${inMask}\n`);
        expect(value(host, "by-handle:outside-file")).toBe(`${f.canaries[0]}\n`);
      }
      expect(value(host, "masked-list")).toEqual(["key.pem"]);

      const state = hostState();
      const tree = snapshot([f.base], [f.write]);
      const a = await attack(mode, funnelPolicy(f, { mask: [masked] }), HANDLES, args);
      expectContained(a, [inMask, ...f.canaries]);
      expect(
        outcomes(a, [
          "by-handle:masked-file",
          "by-handle:masked-dir",
          "by-handle:outside-file",
          "name_to_handle_at",
          "masked-read",
          "umount-mask",
        ]),
      ).toEqual({
        "by-handle:masked-file": EPERM, // seccomp (and no capability)
        "by-handle:masked-dir": EPERM,
        "by-handle:outside-file": EPERM,
        name_to_handle_at: EPERM,
        "masked-read": ENOENT,
        "umount-mask": EPERM,
      });
      expect(value(a, "masked-list")).toEqual([]);
      expect(value(a, "visible")).toBe(`${f.control}\n`); // control: the rest of the root
      expect(snapshot([f.base], [f.write])).toEqual(tree);
      expect(hostState()).toEqual(state);
    });

    const writeOnly = (root: string) =>
      ({
        fsRead: "restricted",
        fsWrite: "restricted",
        exec: "all",
        read: [...RUNTIME_READ],
        write: [root, ...DEVICE_SINKS],
        netDenyAll: true,
        maxProcs: 64,
      }) as const;

    it(`class 7 (write-only root) as ${mode.name}: writing a new file into a write-only root works and nothing else changes`, async () => {
      const f = fixture(mode);
      file(mode, join(f.write, "secret.txt"), `${f.canaries[2]}\n`);
      settleTimes(f.base);
      const state = hostState();
      const tree = snapshot([f.base], [f.write]);
      const a = await attack(mode, writeOnly(f.write), WRITE_ONLY, { root: f.write });
      expectRan(a);
      expect(outcomes(a, ["write-new"])).toEqual({ "write-new": "ok" });
      expect(readFileSync(join(f.write, "new.txt"), "utf8")).toBe("written by the call");
      expect(a.leftover).toEqual([]);
      expect(snapshot([f.base], [f.write])).toEqual(tree);
      expect(hostState()).toEqual(state);
    });

    // Was a hole: every `write` path was granted LL_READ too. A write root is now readable
    // only when it is also a read root (kernel-boundary.md §2, Landlock).
    it(`class 7 (write-only root) as ${mode.name}: a file in a write-only root is not readable`, async () => {
      const f = fixture(mode);
      const secret = canary();
      file(mode, join(f.write, "secret.txt"), `${secret}\n`);
      const a = await attack(mode, writeOnly(f.write), WRITE_ONLY, { root: f.write });
      expectRan(a);
      expect(outcomes(a, ["read-existing", "list", "read-back"])).toEqual({
        "read-existing": EACCES,
        list: EACCES,
        "read-back": EACCES,
      });
      expectContained(a, [secret]);
    });

    it(`class 8 (runtime closure) as ${mode.name}: /etc/shadow and /etc/ssl/private stay unreadable next to /etc/passwd and /etc/ssl/certs`, async () => {
      const f = fixture(mode);
      const inKey = canary();
      // A private key beside the certificates (root only can put one there).
      const key = `/etc/ssl/private/bridle-boundary-${inKey.slice(-12)}.pem`;
      if (isRoot && existsSync("/etc/ssl/private")) {
        writeFileSync(key, `${inKey}\n`, { mode: 0o644 });
        onCleanup(() => rmSync(key, { force: true }));
      }
      // Every line of the shadow files is a canary (the hashes, or the locked accounts).
      const shadowLines = ["/etc/shadow", "/etc/gshadow"].flatMap((path) => {
        try {
          return readFileSync(path, "utf8")
            .split("\n")
            .filter((line) => line.includes(":"));
        } catch {
          return [];
        }
      });
      const policy = funnelPolicy(f, {
        read: [...RUNTIME_READ, "/etc/ssl/certs", f.read],
      });
      // Control: unconfined, root reads both (other users are kept out by their modes).
      const host = await unconfined(mode, CLOSURE, { key });
      expectRan(host);
      if (mode.name === "root") {
        expect(value(host, "private-key")).toBe(`${inKey}\n`);
        expect(outcomes(host, ["shadow"])).toEqual({ shadow: "ok" });
      }
      const state = hostState();
      const a = await attack(mode, policy, CLOSURE, { key });
      expectContained(a, [inKey, ...shadowLines, ...f.canaries]);
      expect(
        outcomes(a, [
          "shadow",
          "gshadow",
          "shadow-stat",
          "private-list",
          "private-key",
          "etc-list",
        ]),
      ).toEqual({
        shadow: ENOENT, // not in the view at all
        gshadow: ENOENT,
        "shadow-stat": ENOENT,
        "private-list": ENOENT,
        "private-key": ENOENT,
        "etc-list": EACCES, // /etc itself is not granted (Landlock)
      });
      // Positive control: the public files beside them.
      expect(outcomes(a, ["passwd", "certs", "cert"])).toEqual({
        passwd: "ok",
        certs: "ok",
        cert: "ok",
      });
      expect(value(a, "passwd")).toBe(true);
      expect(value(a, "cert")).toBe(true);
      if (mode.name === "root")
        expect(readdirSync("/etc/ssl/private")).toContain(key.split("/").pop());
      expect(hostState()).toEqual(state);
    });
  });
});
