import { spawn } from "node:child_process";
import { copyFileSync, writeFileSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { join } from "node:path";
import { ConfigurationError } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { locateLauncher, verifyLauncher } from "../../src/launcher/locate.js";
import { renderLauncherPolicy } from "../../src/launcher/policy.js";
import { probeLauncher } from "../../src/launcher/probe.js";
import { tempDir } from "./harness.js";

describe("renderLauncherPolicy", () => {
  it("renders every directive in protocol order", () => {
    const text = renderLauncherPolicy({
      fsRead: "restricted",
      fsWrite: "restricted",
      exec: "all",
      read: ["/usr"],
      write: ["/w"],
      execute: ["/usr/bin/cat"],
      mask: ["/w/.git"],
      netDenyAll: true,
      keepFds: [4],
      rlimitFsize: 1024,
      rlimitAs: 2048,
      maxProcs: 16,
      cwd: "/w",
    });
    expect(text).toBe(
      "version 1\nfs-read restricted\nfs-write restricted\nexec all\nread /usr\nwrite /w\n" +
        "execute /usr/bin/cat\nmask /w/.git\nnet deny-all\nkeep-fd 4\nrlimit-fsize 1024\n" +
        "rlimit-as 2048\nmax-procs 16\ncwd /w\n",
    );
  });

  it.each([
    ["a newline", { write: ["/w\nread /"] }],
    ["a NUL", { read: ["/a\0b"] }],
    ["a relative path", { cwd: "w" }],
    ["keep-fd 2", { keepFds: [2] }],
    ["max-procs 0", { maxProcs: 0 }],
    ["a fractional limit", { rlimitAs: 1.5 }],
  ])("refuses %s with ConfigurationError", (_label, extra) => {
    const policy = { fsRead: "all", fsWrite: "all", exec: "all", ...extra } as const;
    expect(() => renderLauncherPolicy(policy)).toThrow(ConfigurationError);
  });
});

// The launcher binary exists only on Linux.
describe.skipIf(process.platform !== "linux")("locating and probing the launcher", () => {
  it("locates a checksum-verified launcher and probes the kernel", async () => {
    const binary = await locateLauncher();
    expect(binary?.sha256).toMatch(/^[0-9a-f]{64}$/);
    if (binary === undefined) return;
    const probe = await probeLauncher(binary);
    expect(probe).toMatchObject({ launcher_version: 1, seccomp: true });
    expect(probe.landlock_abi).toBeGreaterThanOrEqual(1);
    expect(["cgroup", "userns-rlimit", "none"]).toContain(probe.max_procs);
  });

  it("refuses a launcher whose checksum does not match", async () => {
    const binary = await locateLauncher();
    if (binary === undefined) throw new Error("no launcher");
    const copy = join(tempDir(), "bridle-launch");
    copyFileSync(binary.path, copy);
    writeFileSync(`${copy}.sha256`, `${"0".repeat(64)}  bridle-launch\n`);
    await expect(verifyLauncher(copy, "prebuilt")).rejects.toThrow(ConfigurationError);
    writeFileSync(`${copy}.sha256`, `${binary.sha256}  bridle-launch\n`);
    await expect(verifyLauncher(copy, "prebuilt")).resolves.toMatchObject({ path: copy });
  });

  it("reports a unix socket peer's kernel-attested credentials (--peer-cred)", async () => {
    const binary = await locateLauncher();
    if (binary === undefined) throw new Error("no launcher");
    const path = join(tempDir(), "sock");
    const accepted = new Promise<Socket>((resolve) => {
      const server = createServer((socket) => {
        server.close();
        resolve(socket);
      }).listen(path);
    });
    const client = connect(path);
    const socket = await accepted;
    const child = spawn(binary.path, ["--peer-cred", "3"], {
      stdio: ["ignore", "pipe", "pipe", socket],
    });
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    client.destroy();
    socket.destroy();
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({
      pid: process.pid,
      uid: process.getuid?.(),
      gid: process.getgid?.(),
    });
  });
});
