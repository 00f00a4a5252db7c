import { chmodSync, copyFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigurationError } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { locateLauncher, prebuiltLauncherPath, verifyLauncher } from "../../src/launcher/locate.js";
import { probeLauncher } from "../../src/launcher/probe.js";
import { tempDir } from "./harness.js";

// Issue 17 point 1: `pnpm pack` stores the launcher as 0644, so an installed package had
// a launcher nobody could run and every restricted call was refused.
describe("the prebuilt launcher for this architecture", () => {
  it("is chosen by process.arch, and only for the architectures shipped", () => {
    expect(prebuiltLauncherPath("x64")).toBe("prebuilt/linux-x64/bridle-launch");
    expect(prebuiltLauncherPath("arm64")).toBe("prebuilt/linux-arm64/bridle-launch");
    expect(prebuiltLauncherPath("riscv64")).toBeUndefined();
    expect(prebuiltLauncherPath()).toBe(
      ["x64", "arm64"].includes(process.arch)
        ? `prebuilt/linux-${process.arch}/bridle-launch`
        : undefined,
    );
  });
});

// The launcher binary exists only on Linux.
describe.skipIf(process.platform !== "linux")("a launcher unpacked without its execute bit", () => {
  async function unpackedCopy(sha256: string): Promise<string> {
    const binary = await locateLauncher();
    if (binary === undefined) throw new Error("no launcher");
    const copy = join(tempDir(), "bridle-launch");
    copyFileSync(binary.path, copy);
    writeFileSync(`${copy}.sha256`, `${sha256}  bridle-launch\n`);
    // What pnpm pack and npm install leave behind.
    chmodSync(copy, 0o644);
    return copy;
  }

  it("gets its execute bit back once its checksum matched, and then runs", async () => {
    const binary = await locateLauncher();
    if (binary === undefined) throw new Error("no launcher");
    const copy = await unpackedCopy(binary.sha256);
    const found = await verifyLauncher(copy, "prebuilt");
    expect(found).toMatchObject({ path: copy, sha256: binary.sha256 });
    expect(statSync(copy).mode & 0o777).toBe(0o755);
    const probe = await probeLauncher({ path: copy, source: "prebuilt", sha256: binary.sha256 });
    expect(probe).toMatchObject({ launcher_version: 1 });
  });

  it("stays unexecutable when its checksum does not match (nothing is made runnable)", async () => {
    const copy = await unpackedCopy("0".repeat(64));
    await expect(verifyLauncher(copy, "prebuilt")).rejects.toThrow(ConfigurationError);
    expect(statSync(copy).mode & 0o777).toBe(0o644);
  });
});
