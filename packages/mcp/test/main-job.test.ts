import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The README's main job (tools/scripts/demo.sh = install + build + this script), run as
// written on the built checkout the test command has just produced. Linux: the demo's
// allowed call and refusals rely on the launcher.
const root = fileURLToPath(new URL("../../../", import.meta.url));
const escapeMarker = "/tmp/bridle-demo-escape";

describe.skipIf(process.platform !== "linux")("the README's main job (Linux)", () => {
  it("runs bridle on the demo grant: doctor, an allowed call, refused escapes, a refused substitution, a read", () => {
    rmSync(escapeMarker, { force: true });
    const run = spawnSync("bash", ["tools/scripts/main-job.sh"], {
      cwd: root,
      encoding: "utf8",
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root" },
    });
    expect(run.status, run.stderr).toBe(0);
    const out = run.stdout;
    expect(out).toContain("backend: landlock — available");
    // The default engine: the bash engine, under the launcher.
    // The command's output shows while it runs, then the summary.
    expect(out).toMatch(
      /== bridle run -- 'ls packages \| wc -l'\nbridle: no --grant, using the demo grant [^\n]*\n\d+\nexit code: 0\nsandbox: landlock, engine brush\n/,
    );
    expect(out).toContain("shell-brush: available, the default shell");
    // The escape attempts: the read and the write outside the grant are refused, and
    // reported as denials.
    expect(out).toContain("cat: /etc/shadow: Permission denied");
    expect(out).toContain("/tmp/bridle-demo-escape: Permission denied");
    expect(out).toMatch(/\[FS_OUTSIDE_ALLOWED\] denied: write of "\/tmp\/bridle-demo-escape"/);
    expect(out).toContain("SHELL_DYNAMIC_CONSTRUCT");
    expect(out).toContain("# agent-bridle for TypeScript");
    expect(existsSync(escapeMarker)).toBe(false);
    // With no --grant, each command announces the demo grant on stderr, once and briefly.
    expect(out).toContain("bridle: no --grant, using the demo grant");
    expect(out).not.toContain('"fs_read"');
    // The read pipes the file's text alone; its summary went to stderr.
    expect(out).toMatch(/\(first lines, via the read_file tool\)\n# agent-bridle for TypeScript/);
    expect(run.stderr).toMatch(/read \S*README\.md \(\d+ bytes/);
  }, 130_000);
});
