import { closeSync, existsSync, openSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import type { LauncherPolicy } from "../../src/launcher/types.js";
import { launch, launcherPath, tempDir } from "./harness.js";

// The launcher is Linux-only (PID namespace, PDEATHSIG, close_range).
describe.skipIf(process.platform !== "linux")("bridle-launch: lifecycle and descriptors", () => {
  let launcher = "";
  beforeAll(async () => {
    launcher = await launcherPath();
  });

  const policyFor = (root: string): LauncherPolicy => ({
    fsRead: "all",
    fsWrite: "restricted",
    exec: "all",
    write: [root],
  });

  it("kills setsid and double-forked descendants with the launcher", async () => {
    const script = (root: string, wait: number) =>
      [
        `/usr/bin/setsid /bin/sh -c 'sleep 2; touch ${root}/a' &`,
        `/bin/sh -c '(sleep 2; touch ${root}/b) &' &`,
        `sleep ${wait}`,
      ].join("\n");
    const killed = tempDir();
    const control = tempDir(); // not killed: proves the descendants would write the markers
    const started = Date.now();
    const [result] = await Promise.all([
      launch(launcher, policyFor(killed), ["/bin/sh", "-c", script(killed, 30)], {
        onSpawn: (pid) => {
          setTimeout(() => process.kill(pid, "SIGKILL"), 300);
        },
      }),
      launch(launcher, policyFor(control), ["/bin/sh", "-c", script(control, 2.5)]),
    ]);
    expect(result.signal).toBe("SIGKILL");
    await sleep(3000 - (Date.now() - started));
    expect(existsSync(join(killed, "a"))).toBe(false);
    expect(existsSync(join(killed, "b"))).toBe(false);
    expect(existsSync(join(control, "a"))).toBe(true);
    expect(existsSync(join(control, "b"))).toBe(true);
  });

  it("turns a forwarded SIGTERM into the target's death even as PID 1 (128+15)", async () => {
    const root = tempDir();
    const started = Date.now();
    const result = await launch(launcher, policyFor(root), ["/bin/sleep", "30"], {
      onSpawn: (pid) => {
        setTimeout(() => process.kill(pid, "SIGTERM"), 200);
      },
    });
    expect(result.code).toBe(143);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("closes an inherited non-CLOEXEC descriptor unless it is kept", async () => {
    const root = tempDir();
    const fd = openSync("/dev/null", "r");
    try {
      const ls = ["/bin/ls", "/proc/self/fd"];
      const closed = await launch(launcher, policyFor(root), ls, { extraStdio: [fd] });
      expect(closed.stdout.split("\n").filter(Boolean)).toEqual(["0", "1", "2", "3"]);
      const kept = await launch(launcher, { ...policyFor(root), keepFds: [4] }, ls, {
        extraStdio: [fd],
      });
      expect(kept.stdout.split("\n")).toContain("4");
    } finally {
      closeSync(fd);
    }
  });

  it("exits 125 on an unknown directive and runs nothing", async () => {
    const root = tempDir();
    const marker = join(root, "ran");
    const policy = `version 1\nfs-read all\nfs-write all\nexec all\nfrobnicate yes\n`;
    const result = await launch(launcher, policy, ["/usr/bin/touch", marker]);
    expect(result.code).toBe(125);
    expect(result.stderr).toBe("bridle-launch: policy line 5: unknown directive\n");
    expect(existsSync(marker)).toBe(false);
  });

  it("exits 125 when an axis is missing, and 127 for a missing program", async () => {
    const root = tempDir();
    const partial = await launch(launcher, "version 1\nfs-read all\n", ["/usr/bin/true"]);
    expect(partial.code).toBe(125);
    const missing = await launch(launcher, policyFor(root), [join(root, "nope")]);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toMatch(/^bridle-launch: exec .*nope: No such file or directory\n$/);
  });
});
