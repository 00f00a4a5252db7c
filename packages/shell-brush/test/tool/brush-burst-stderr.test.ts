import { spawnSync } from "node:child_process";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";

// Issue 20 point 4: a host that fires 64 bash-engine calls at once, under a grant that
// engages the launcher, hears nothing on its own stderr — no MaxListenersExceededWarning
// for abort listeners, no other warning — and every call answers. A host process of its
// own (the test's stderr is vitest's), importing the built packages.
const linux = process.platform === "linux";
const tempDir = useTempDirs("brush-burst-", "each");
const dist = (name: string) => new URL(`../../../${name}/dist/index.js`, import.meta.url).href;

describe.skipIf(!linux)("a burst of 64 calls (Linux: the launcher)", () => {
  it("prints nothing to the host's stderr, and all 64 answer under the kernel boundary", () => {
    const dir = tempDir();
    const script = `
      import { caveats, defaultPathPolicy, only, Registry } from "${dist("core")}";
      import { createBrushShellTool } from "${dist("shell-brush")}";
      const dir = ${JSON.stringify(dir)};
      const tool = createBrushShellTool({ home: "/nonexistent-home", tmpdir: "/tmp", baseDir: dir });
      const registry = Registry.builder()
        .tool(tool)
        .pathPolicy(defaultPathPolicy({ platform: "linux", home: "/nonexistent-home" }))
        .build();
      const grant = () => registry.mintGrant(caveats({
        fs_read: "all", fs_write: only([dir]), exec: only(["seq", "wc"]), net: only([]),
        max_calls: "unlimited", valid_for_generation: "all",
      }));
      const controller = new AbortController();
      const envelopes = await Promise.all(Array.from({ length: 64 }, (_, i) =>
        registry.dispatch("shell", { cmd: "seq 1 " + (i + 1) + " | wc -l" }, grant(),
          { signal: controller.signal })));
      const wrong = envelopes.filter((e, i) =>
        e.exit_code !== 0 || e.stdout !== (i + 1) + "\\n" || e.sandbox_kind !== "landlock");
      await registry.close();
      process.stdout.write(JSON.stringify({ answered: envelopes.length, wrong }));
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 180_000,
    });
    expect(run.stderr.toString()).toBe("");
    expect(JSON.parse(run.stdout.toString())).toEqual({ answered: 64, wrong: [] });
    expect(run.status).toBe(0);
  }, 200_000);
});
