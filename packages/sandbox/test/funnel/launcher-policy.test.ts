import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigurationError, caveats, NO_COVERAGE, only, top } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { launcherPolicyOf } from "../../src/backend/launcher-policy-of.js";
import { renderLauncherPolicy } from "../../src/launcher/policy.js";
import { useTempDir } from "./helpers/funnel-context.js";

const tempDir = useTempDir();

describe("the launcher policy from the effective caveats", () => {
  it("restricts reads to roots + runtime closure, masks blocked paths inside roots, executes only granted + loader", async () => {
    const root = realpathSync(tempDir());
    mkdirSync(join(root, "secret"));
    const { policy, unmasked } = await launcherPolicyOf({
      caveats: caveats({
        fs_read: only([root]),
        fs_write: only([root]),
        exec: only(["cat"]),
        net: only([]),
      }),
      pathPolicy: {
        blocked: [join(root, "secret"), join(root, "missing"), "**/.ssh", "/etc"],
        writeBlocked: [],
      },
      coverage: NO_COVERAGE,
      extraWriteRoots: [],
      limits: {},
      runtimeExecutables: [],
      keepFds: [3],
      cwd: root,
    });
    expect(policy).toMatchObject({
      fsRead: "restricted",
      fsWrite: "restricted",
      exec: "restricted",
      netDenyAll: true,
    });
    expect(policy.read).toContain(root);
    expect(policy.read).toContain("/usr/lib");
    expect(policy.read).toContain("/usr/bin/cat");
    expect(policy.read).not.toContain("/usr/bin");
    expect(policy.write).toEqual([root, "/dev/null", "/dev/zero", "/dev/full"]);
    expect(policy.execute).toContain("/usr/bin/cat");
    expect(policy.execute).toContain("/lib64/ld-linux-x86-64.so.2");
    expect(policy.execute).toContain(realpathSync("/lib64/ld-linux-x86-64.so.2"));
    expect(policy.mask).toEqual([join(root, "secret")]);
    expect(unmasked).toEqual([join(root, "missing"), "**/.ssh"]);
    const text = renderLauncherPolicy(policy);
    expect(
      text.startsWith("version 1\nfs-read restricted\nfs-write restricted\nexec restricted\n"),
    ).toBe(true);
    expect(text).toContain(`\nmask ${join(root, "secret")}\n`);
    expect(text).toContain("\nnet deny-all\n");
    expect(text).toContain("\nkeep-fd 3\n");
    expect(text.endsWith(`cwd ${root}\n`)).toBe(true);
  });

  it("makes the engine's runtime files readable (a bundled worker), only when reads are restricted", async () => {
    const root = realpathSync(tempDir());
    const worker = join(root, "worker.js");
    writeFileSync(worker, "");
    const request = {
      pathPolicy: { blocked: [], writeBlocked: [] },
      coverage: NO_COVERAGE,
      extraWriteRoots: [],
      limits: {},
      runtimeExecutables: [],
      runtimeReadPaths: [worker],
      keepFds: [],
      cwd: "/",
    };
    const restricted = await launcherPolicyOf({
      ...request,
      caveats: caveats({ fs_read: only(["/srv/none"]), fs_write: "all", exec: "all", net: "all" }),
    });
    expect(restricted.policy.read).toContain(worker);
    expect(restricted.policy.read).not.toContain(root);
    const open = await launcherPolicyOf({ ...request, caveats: top() });
    expect(open.policy.read).toEqual([]);
  });

  it("drops a granted root covered by a blocked entry (fail closed)", async () => {
    const { policy } = await launcherPolicyOf({
      caveats: caveats({
        fs_read: "all",
        fs_write: only(["/etc", "relative/dir"]),
        exec: "all",
        net: "all",
      }),
      pathPolicy: { blocked: ["/etc"], writeBlocked: [] },
      coverage: NO_COVERAGE,
      extraWriteRoots: [],
      limits: {},
      runtimeExecutables: [],
      keepFds: [],
      cwd: "/",
    });
    expect(policy.write).toEqual(["/dev/null", "/dev/zero", "/dev/full"]);
    expect(policy.fsRead).toBe("all");
    expect(policy.read).toEqual([]);
  });

  it("refuses a path with a newline in the policy text", () => {
    expect(() =>
      renderLauncherPolicy({
        fsRead: "all",
        fsWrite: "restricted",
        exec: "all",
        read: [],
        write: ["/tmp/a\nexec all"],
        execute: [],
        netDenyAll: false,
        mask: [],
        keepFds: [],
      }),
    ).toThrow(ConfigurationError);
  });
});
