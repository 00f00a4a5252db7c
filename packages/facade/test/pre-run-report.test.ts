import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { caveats, only, type Registry, registry } from "../src/index.js";

// Issue 17 point 10: a refusal before anything ran started no sandbox, so it reports no
// kernel strengths; a call that ran reports what held it (positive control).
const tempDir = useTempDirs("bridle-pre-run-", "all");
const opened: Registry[] = [];
afterEach(async () => {
  for (const built of opened.splice(0)) await built.close();
});

interface Envelope {
  readonly denied?: boolean;
  readonly sandbox_kind?: string;
  readonly enforcement?: Record<string, string>;
}

describe("a refusal before anything ran (safe-subset engine)", () => {
  it("claims no strength on any axis; the same grant's run reports the sandbox that held it", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "keep.txt"), "kept\n");
    const built = registry({ shell: "safe", baseDir: dir });
    opened.push(built);
    const grant = caveats({
      fs_read: only([dir, "/usr/local/bin", "/usr/bin", "/bin"]),
      fs_write: only([dir]),
      exec: only(["touch"]),
      net: "all",
      max_calls: "unlimited",
      valid_for_generation: "all",
    });
    const refused = (await built.dispatchOneshot(
      "shell",
      { cmd: "rm keep.txt" },
      grant,
    )) as Envelope;
    expect(refused.denied).toBe(true);
    expect(existsSync(join(dir, "keep.txt"))).toBe(true);
    expect(refused.sandbox_kind).toBe("none");
    expect(refused.enforcement).toBeUndefined();
    const ran = (await built.dispatchOneshot("shell", { cmd: "touch made" }, grant)) as Envelope;
    expect(ran.denied).toBeUndefined();
    expect(existsSync(join(dir, "made"))).toBe(true);
    expect(Object.keys(ran.enforcement ?? {})).toEqual(
      expect.arrayContaining(["fs_read", "fs_write", "exec"]),
    );
  });
});
