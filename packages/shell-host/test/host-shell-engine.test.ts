import { existsSync } from "node:fs";
import { join } from "node:path";
import { DeniedEnvelopeSchema, only, RunEnvelopeSchema, TRUSTED_PATH } from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { describe, expect, it } from "vitest";
import { createHostShellTool } from "../src/host-shell-tool.js";
import { registryWith, useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();
const noBackendTool = (baseDir: string) =>
  createHostShellTool({
    home: "/nonexistent-home",
    tmpdir: "/tmp",
    baseDir,
    backend: NONE_BACKEND,
  });

describe("host shell: engine behaviour", () => {
  it("case 75: top() runs full bash; PATH is the trusted PATH; a caller PATH does not resolve programs", async () => {
    const a = tempDir();
    const { dispatch } = registryWith(noBackendTool(a));
    const composed = RunEnvelopeSchema.parse(await dispatch({ cmd: 'echo "$(echo composed)"' }));
    expect(composed).toMatchObject({
      stdout: "composed\n",
      exit_code: 0,
      sandbox_kind: "none",
      timed_out: false,
    });
    expect(composed.enforcement).toBeUndefined();
    expect(composed.disclosure).toEqual({ engine: "sandbox-host", human_gate: "none" });
    const path = RunEnvelopeSchema.parse(
      await dispatch({ cmd: "printf '%s' \"$PATH\"", env: { PATH: a } }),
    );
    expect(path.stdout).toBe(TRUSTED_PATH);
  });

  it("case 74 without a backend: exec only[echo] and net only[example.com:443] are refused in-band; nothing runs; not charged", async () => {
    const a = tempDir();
    const sentinel = join(a, "sentinel");
    const { registry } = registryWith(noBackendTool(a));
    for (const [partial, kind, axis] of [
      [{ exec: only(["echo"]) }, "exec", "exec"],
      [{ net: only(["example.com:443"]) }, "net", "net"],
      [{ fs_write: only([a]) }, "open", "fs_write"],
    ] as const) {
      const grant = registry.mintGrant({
        ...partial,
        fs_read: "all",
        fs_write: partial.fs_write ?? "all",
        exec: partial.exec ?? "all",
        net: partial.net ?? "all",
        max_calls: { at_most: 1 },
        valid_for_generation: "all",
      });
      const envelope = DeniedEnvelopeSchema.parse(
        await registry.dispatch("shell", { cmd: `touch ${sentinel}` }, grant),
      );
      expect(envelope.denials[0]).toMatchObject({
        kind,
        target: `sandbox-host engine (${axis} restricted)`,
        code: "ENGINE_UNAVAILABLE",
      });
      expect(envelope.disclosure).toMatchObject({ engine: "sandbox-host" });
      expect(grant.remainingCalls).toBe(1);
      expect(existsSync(sentinel)).toBe(false);
    }
  });

  it("rejects an out-of-range timeout with the maximum named (not clamped), and a relative cwd without a base", async () => {
    const { dispatch } = registryWith(noBackendTool(tempDir()));
    await expect(dispatch({ cmd: "true", timeout_secs: 9999 })).rejects.toMatchObject({
      code: "INVALID_ARGUMENTS",
      message: expect.stringContaining("at most 300"),
    });
    const baseless = createHostShellTool({
      home: "/nonexistent-home",
      tmpdir: "/tmp",
      backend: NONE_BACKEND,
    });
    const result = DeniedEnvelopeSchema.parse(
      await registryWith(baseless).dispatch({ cmd: "true" }),
    );
    expect(result.denials[0]).toMatchObject({ code: "FS_NO_BASE_DIR" });
  });

  it("judges cwd against fs_read before anything runs", async () => {
    const a = tempDir();
    const b = tempDir();
    const marker = join(b, "ran");
    const { dispatch } = registryWith(noBackendTool(a));
    const result = DeniedEnvelopeSchema.parse(
      await dispatch({ cmd: `touch ${marker}`, cwd: b }, { fs_read: only([a]) }),
    );
    expect(result.denials[0]).toMatchObject({ code: "FS_OUTSIDE_ALLOWED" });
    expect(existsSync(marker)).toBe(false);
  });

  it("caps output with exact flags and drains the rest (exit 0)", async () => {
    const tool = createHostShellTool({
      home: "/nonexistent-home",
      tmpdir: "/tmp",
      baseDir: tempDir(),
      backend: NONE_BACKEND,
      limits: { maxOutputBytes: 8 },
    });
    const envelope = RunEnvelopeSchema.parse(
      await registryWith(tool).dispatch({ cmd: "head -c 5000000 /dev/zero | tr '\\0' x" }),
    );
    expect(envelope).toMatchObject({
      stdout: "xxxxxxxx",
      stdout_truncated: true,
      stderr_truncated: false,
      exit_code: 0,
    });
  });
});
