// setUnbridled() is process-wide and cannot be undone: vitest runs this file in its own
// module graph, so it does not leak into the other files.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DeniedEnvelopeSchema, only, RunEnvelopeSchema, setUnbridled } from "@agent-bridle/core";
import { createLandlockBackend } from "@agent-bridle/sandbox";
import { beforeAll, describe, expect, it } from "vitest";
import { createHostShellTool } from "../src/host-shell-tool.js";
import { registryWith, useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();
beforeAll(() => setUnbridled());

describe("host shell in an unbridled process (case 98)", () => {
  it("refuses every restricted grant in-band: nothing would enforce it (no kernel, no L2)", async () => {
    const a = tempDir();
    const sentinel = join(a, "sentinel");
    const tool = createHostShellTool({
      home: a,
      tmpdir: "/tmp",
      baseDir: a,
      backend: createLandlockBackend(),
    });
    const { registry } = registryWith(tool);
    for (const partial of [{ exec: only(["echo"]) }, { fs_read: only([a]) }, { net: only([]) }]) {
      const grant = registry.mintGrant({
        fs_read: "all",
        fs_write: "all",
        exec: "all",
        net: "all",
        ...partial,
        max_calls: { at_most: 1 },
        valid_for_generation: "all",
      });
      const envelope = DeniedEnvelopeSchema.parse(
        await registry.dispatch("shell", { cmd: `touch ${sentinel}` }, grant),
      );
      expect(envelope.denials[0]).toMatchObject({ code: "ENGINE_UNAVAILABLE" });
      expect(envelope.disclosure).toMatchObject({ unbridled: true, engine: "sandbox-host" });
      expect(grant.remainingCalls).toBe(1);
      expect(existsSync(sentinel)).toBe(false);
    }
  });

  it("runs an unrestricted grant with no sandbox, never claiming kernel, and discloses it", async () => {
    const a = tempDir();
    const tool = createHostShellTool({
      home: a,
      tmpdir: "/tmp",
      baseDir: a,
      backend: createLandlockBackend(),
    });
    const envelope = RunEnvelopeSchema.parse(await registryWith(tool).dispatch({ cmd: "echo hi" }));
    expect(envelope).toMatchObject({
      sandbox_kind: "none",
      stdout: "hi\n",
      disclosure: { unbridled: true },
    });
    expect(envelope.enforcement).toBeUndefined();
  });
});
