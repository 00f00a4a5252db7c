import { statSync } from "node:fs";
import { join } from "node:path";
import { RunEnvelopeSchema } from "@agent-bridle/core";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import {
  caveats,
  DEFAULT_RESOURCE_LIMITS,
  only,
  registry,
  type ShellChoice,
} from "../src/index.js";

// The host's resource limits reach whichever engine serves `shell` (Linux: the launcher).
const tempDir = useTempDirs("bridle-facade-limits-", "each");

describe("resourceLimits through the facade", () => {
  it("exposes the defaults", () => {
    expect(DEFAULT_RESOURCE_LIMITS).toMatchObject({
      maxProcesses: 512,
      treeMemoryBytes: 4 * 1024 ** 3,
      fileSizeBytes: 1024 ** 3,
      openFiles: 4096,
      privateTmpBytes: 512 * 1024 ** 2,
    });
  });

  describe.skipIf(process.platform !== "linux")("each engine applies them (Linux)", () => {
    it.each(["brush", "safe", "host"] as const satisfies readonly ShellChoice[])(
      "%s: a write past shellOptions.resourceLimits.fileSizeBytes is LIMIT_EXCEEDED file_size",
      async (shell) => {
        const dir = tempDir();
        const built = registry({
          shell,
          baseDir: dir,
          shellOptions: { warm: false, resourceLimits: { fileSizeBytes: 1 << 20 } },
        });
        try {
          const grant = built.mintGrant(
            caveats({ fs_read: "all", fs_write: only([dir]), exec: "all", net: "all" }),
          );
          const envelope = RunEnvelopeSchema.parse(
            await built.dispatch("shell", { cmd: "head -c 2M /dev/zero > f", cwd: dir }, grant),
          );
          expect(envelope.sandbox_kind).toBe("landlock");
          expect(envelope.denials).toContainEqual(
            expect.objectContaining({ code: "LIMIT_EXCEEDED", target: "file_size" }),
          );
          expect(statSync(join(dir, "f")).size).toBeLessThanOrEqual(1 << 20);
        } finally {
          await built.close();
        }
      },
    );
  });
});
