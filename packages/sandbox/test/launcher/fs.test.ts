import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { renderLauncherPolicy } from "../../src/launcher/policy.js";
import type { LauncherPolicy } from "../../src/launcher/types.js";
import { baseRead, launch, launcherPath, tempDir } from "./harness.js";

// The launcher is Linux-only (Landlock, namespaces); other platforms have no backend.
describe.skipIf(process.platform !== "linux")("bridle-launch: filesystem", () => {
  let launcher = "";
  beforeAll(async () => {
    launcher = await launcherPath();
  });

  const writeOnly = (root: string) =>
    ({ fsRead: "all", fsWrite: "restricted", exec: "all", write: [root] }) as const;

  it("lets a granted touch write inside its write root only", async () => {
    const root = tempDir();
    const outside = tempDir();
    const denied = await launch(launcher, writeOnly(root), ["/usr/bin/touch", join(outside, "x")]);
    expect(denied.code).not.toBe(0);
    // Outside the private view the directory does not exist at all (kernel-boundary.md §2).
    expect(denied.stderr).toMatch(/No such file or directory/);
    expect(existsSync(join(outside, "x"))).toBe(false);
    const allowed = await launch(launcher, writeOnly(root), ["/usr/bin/touch", join(root, "x")]);
    expect(allowed.code).toBe(0);
    expect(existsSync(join(root, "x"))).toBe(true);
  });

  it("takes the policy as an argument (--policy) exactly as on a descriptor", () => {
    const root = tempDir();
    const outside = tempDir();
    const text = renderLauncherPolicy(writeOnly(root));
    const run = (target: string) =>
      spawnSync(launcher, ["--policy", text, "--", "/usr/bin/touch", target], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { PATH: "/usr/bin:/bin", LC_ALL: "C" },
      });
    const denied = run(join(outside, "x"));
    expect(denied.status).not.toBe(0);
    expect(denied.stderr.toString()).toMatch(/No such file or directory/);
    expect(existsSync(join(outside, "x"))).toBe(false);
    expect(run(join(root, "x")).status).toBe(0);
    expect(existsSync(join(root, "x"))).toBe(true);
    const unterminated = spawnSync(launcher, ["--policy", "version 1", "--", "/bin/true"]);
    expect(unterminated.status).toBe(125);
  });

  it("keeps cat and grep -f from reading outside the read roots", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(join(root, "in"), "inside\n");
    writeFileSync(join(outside, "secret"), "secret\n");
    const policy = {
      fsRead: "restricted",
      fsWrite: "restricted",
      exec: "all",
      read: [...baseRead, root],
    } as const;
    const denied = await launch(launcher, policy, ["/usr/bin/cat", join(outside, "secret")]);
    expect(denied.code).toBe(1);
    expect(denied.stdout).toBe("");
    const grep = ["/usr/bin/grep", "-f", join(outside, "secret"), join(root, "in")];
    const grepDenied = await launch(launcher, policy, grep);
    expect(grepDenied.code).toBe(2);
    expect(grepDenied.stdout).toBe("");
    const allowed = await launch(launcher, policy, ["/usr/bin/cat", join(root, "in")]);
    expect(allowed).toMatchObject({ code: 0, stdout: "inside\n" });
  });

  it("binds a find -exec grandchild to the same write roots", async () => {
    const root = tempDir();
    const outside = tempDir();
    const find = (target: string) => [
      "/usr/bin/find",
      root,
      "-maxdepth",
      "0",
      "-exec",
      "/usr/bin/touch",
      target,
      ";",
    ];
    await launch(launcher, writeOnly(root), find(join(outside, "escaped")));
    expect(existsSync(join(outside, "escaped"))).toBe(false);
    const inside = await launch(launcher, writeOnly(root), find(join(root, "made")));
    expect(inside.code).toBe(0);
    expect(existsSync(join(root, "made"))).toBe(true);
  });

  it("hides a masked directory inside a granted root from ls and cat", async () => {
    const root = tempDir();
    mkdirSync(join(root, "blocked"));
    writeFileSync(join(root, "blocked", "key"), "secret\n");
    writeFileSync(join(root, "visible"), "ok\n");
    const policy = { ...writeOnly(root), read: [root], mask: [join(root, "blocked")] };
    const ls = await launch(launcher, policy, ["/usr/bin/ls", "-A", join(root, "blocked")]);
    expect(ls).toMatchObject({ code: 0, stdout: "" });
    const cat = await launch(launcher, policy, ["/usr/bin/cat", join(root, "blocked", "key")]);
    expect(cat.code).toBe(1);
    expect(cat.stdout).toBe("");
    const visible = await launch(launcher, policy, ["/usr/bin/cat", join(root, "visible")]);
    expect(visible.stdout).toBe("ok\n");
    expect(existsSync(join(root, "blocked", "key"))).toBe(true); // host view unchanged
  });

  it("keeps the device sinks usable when reads and writes are restricted", async () => {
    const policy = { fsRead: "restricted", fsWrite: "restricted", exec: "all", read: baseRead };
    const dd = ["/usr/bin/dd", "if=/dev/zero", "of=/dev/null", "count=1"];
    const result = await launch(launcher, policy as LauncherPolicy, dd);
    expect(result.code).toBe(0);
  });

  it("refuses to execute what is not granted when exec is restricted (126)", async () => {
    const policy = {
      fsRead: "all",
      fsWrite: "restricted",
      exec: "restricted",
      execute: ["/usr/bin/cat", "/lib64/ld-linux-x86-64.so.2", "/usr/lib/x86_64-linux-gnu"],
    } as const;
    const granted = await launch(launcher, policy, ["/usr/bin/cat", "/dev/null"]);
    expect(granted.code).toBe(0);
    const denied = await launch(launcher, policy, ["/usr/bin/ls", "/"]);
    expect(denied.code).toBe(126);
    expect(denied.stdout).toBe("");
    expect(denied.stderr).toMatch(/^bridle-launch: exec \/usr\/bin\/ls: Permission denied\n$/);
  });
});
