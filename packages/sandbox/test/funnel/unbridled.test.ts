import { existsSync } from "node:fs";
import { join } from "node:path";
import { NO_COVERAGE, only, setUnbridled } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../src/funnel/sandbox.js";
import { fakeLauncherBackend } from "./helpers/fake-launcher.js";
import { contextFor, recordingAudit, useTempDir } from "./helpers/funnel-context.js";

// Its own file: the unbridled marker is process-wide and set-once.
const tempDir = useTempDir();

describe("unbridled posture", () => {
  it("drops the mechanism and the floor refusal, keeps the L2 exec check, never claims kernel", async () => {
    setUnbridled();
    const dir = tempDir();
    const { backend, policyFile } = fakeLauncherBackend(dir);
    const sandbox = createSandbox({ home: "/nonexistent-home", tmpdir: "/tmp", backend });
    const base = { cwd: "/", timeoutMs: 5000, maxOutputBytes: 4096 };
    const marker = join(dir, "marker");
    const ran = await sandbox.run(
      contextFor({ fs_write: only([dir]), exec: only(["touch"]) }),
      { ...base, stages: [["touch", marker]] },
      { coverage: NO_COVERAGE },
    );
    expect(ran).toMatchObject({ kind: "ran", sandboxKind: "none", unbridled: true });
    expect(Object.values(ran.report)).not.toContain("kernel");
    expect(existsSync(marker)).toBe(true);
    expect(existsSync(policyFile)).toBe(false);
    const audit = recordingAudit();
    const refused = await sandbox.run(
      contextFor({ exec: only(["touch"]) }, { audit }),
      { ...base, stages: [["rm", marker]] },
      { coverage: NO_COVERAGE },
    );
    expect(refused).toMatchObject({ kind: "refused", denial: { code: "EXEC_NOT_GRANTED" } });
    expect(existsSync(marker)).toBe(true);
  });
});
