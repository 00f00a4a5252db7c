import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const prebuilt = fileURLToPath(
  new URL("../../prebuilt/linux-arm64/bridle-launch", import.meta.url),
);
const qemu = "/usr/bin/qemu-aarch64-static";

describe("the cross-compiled linux-arm64 launcher", () => {
  it("is shipped with a matching checksum", () => {
    const expected = readFileSync(`${prebuilt}.sha256`, "utf8").split(/\s+/)[0];
    expect(createHash("sha256").update(readFileSync(prebuilt)).digest("hex")).toBe(expected);
  });

  // Needs user-mode emulation (Debian: qemu-user-static); untested on real arm64 hardware.
  // qemu-user does not implement Landlock or seccomp, so only the start-up and the probe's
  // protocol are proven here, not the boundary.
  it.skipIf(!existsSync(qemu))(
    "starts and answers --probe in launcher protocol 1 (emulated)",
    () => {
      const output = execFileSync(qemu, [prebuilt, "--probe"], {
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(JSON.parse(output)).toMatchObject({ launcher_version: 1 });
    },
  );
});
