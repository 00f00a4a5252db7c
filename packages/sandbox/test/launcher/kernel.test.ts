import { createServer, type Server } from "node:net";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { LauncherPolicy } from "../../src/launcher/types.js";
import { launch, launcherPath, tempDir } from "./harness.js";

// A python3 target that tries a TCP connect and a UDP socket and prints what happened.
const netProbe = `
import socket, sys
port = int(sys.argv[1])
for kind in ("tcp", "udp"):
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM if kind == "tcp" else socket.SOCK_DGRAM)
        if kind == "tcp":
            s.connect(("127.0.0.1", port))
        print(kind, "ok")
    except OSError as e:
        print(kind, "denied", e.errno)
`;

const forkLoop = `
import os, time
made = 0
try:
    for _ in range(200):
        if os.fork() == 0:
            time.sleep(5)
            os._exit(0)
        made += 1
except OSError as e:
    print("stopped", e.errno)
print(made)
`;

// The launcher is Linux-only (Landlock, seccomp, namespaces).
describe.skipIf(process.platform !== "linux")("bridle-launch: network, namespaces, limits", () => {
  let launcher = "";
  let server: Server | undefined;
  beforeAll(async () => {
    launcher = await launcherPath();
  });
  afterEach(() => {
    server?.close();
    server = undefined;
  });

  const base: LauncherPolicy = { fsRead: "all", fsWrite: "restricted", exec: "all" };

  async function listen(): Promise<number> {
    const s = createServer((socket) => socket.destroy());
    server = s;
    await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
    const address = s.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    return address.port;
  }

  it("denies a TCP connect to a loopback listener and a UDP socket under net deny-all", async () => {
    const port = String(await listen());
    const argv = ["/usr/bin/python3", "-c", netProbe, port];
    const open = await launch(launcher, base, argv);
    expect(open.stdout).toBe("tcp ok\nudp ok\n"); // control: the listener is reachable
    const denied = await launch(launcher, { ...base, netDenyAll: true }, argv);
    expect(denied.stdout).toBe("tcp denied 13\nudp denied 13\n");
  });

  it("refuses to create a user namespace (unshare -U)", async () => {
    const result = await launch(launcher, base, ["/usr/bin/unshare", "-U", "/usr/bin/true"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Operation not permitted/);
  });

  it("stops a fork loop at max-procs, also as root", async () => {
    const result = await launch(launcher, { ...base, maxProcs: 8 }, [
      "/usr/bin/python3",
      "-c",
      forkLoop,
    ]);
    // The target counts as one of the eight; fork fails with EAGAIN (11).
    expect(result.stdout).toBe("stopped 11\n7\n");
    expect(result.code).toBe(0);
  });

  it("applies rlimit-fsize", async () => {
    const root = tempDir();
    const policy = { ...base, write: [root], rlimitFsize: 4096 };
    const dd = ["/usr/bin/dd", "if=/dev/zero", "of=/dev/null", "bs=8192", "count=1"];
    expect((await launch(launcher, policy, dd)).code).toBe(0); // devices are not capped
    const py = `import os\ntry:\n    os.truncate(os.open("${root}/f", os.O_CREAT | os.O_WRONLY), 8192)\nexcept OSError as e:\n    print(e.errno)\n`;
    const result = await launch(launcher, policy, ["/usr/bin/python3", "-c", py]);
    expect(result.stdout).toBe("27\n"); // EFBIG (python ignores SIGXFSZ)
  });
});
