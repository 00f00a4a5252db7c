import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { packCheck, publishablePackages, summaryLine } from "../src/index.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

// The README's test command builds everything first; here `tsc -b` only brings a stale
// `dist/` up to date (a no-op after that build), rather than turbo, whose cache restore
// would rewrite `dist/` under the other suites running beside this one.
beforeAll(async () => {
  const dirs = (await publishablePackages(repoRoot)).map((pkg) => pkg.dir);
  execFileSync(
    process.execPath,
    [join(repoRoot, "node_modules/typescript/bin/tsc"), "-b", ...dirs],
    {
      cwd: repoRoot,
      stdio: "pipe",
    },
  );
}, 300_000);

// The whole packaging check, as `node tools/pack-check/dist/cli.js` runs it. It needs the
// npm registry (or npm's cache) for the third-party dependencies: without it the check
// fails and says so; it never passes silently.
describe("every published package packs, installs into an empty project and loads", () => {
  it("packs with pnpm, installs with npm, imports each entry point, runs the bins, publint is clean", async () => {
    const report = await packCheck({ repoRoot, build: false });
    const published = await publishablePackages(repoRoot);
    expect(report.packages.map((pkg) => pkg.name)).toEqual(published.map((pkg) => pkg.name));
    expect(report.failures).toEqual([]);
    for (const pkg of report.packages) {
      expect(pkg.entryPoints.length, summaryLine(pkg)).toBeGreaterThan(0);
      for (const entry of pkg.entryPoints)
        expect(entry.exports, entry.specifier).toBeGreaterThan(0);
      expect(pkg.lint.filter((message) => message.type !== "suggestion")).toEqual([]);
      // `workspace:*` was rewritten to the packed version.
      for (const range of Object.values(pkg.workspaceDependencies)) {
        expect(range).toBe(pkg.version);
      }
    }
    const mcp = report.packages.find((pkg) => pkg.name === "@agent-bridle/mcp");
    expect(mcp?.bins.map((bin) => bin.bin).sort()).toEqual(["agent-bridle-mcp", "bridle"]);
    // Issue 17 point 1, used for real in the consumer project (Linux: the launcher's OS).
    if (process.platform === "linux") {
      expect(report.installed?.doctor.exitCode).toBe(0);
      expect(report.installed?.doctor.launcherLine).toMatch(
        new RegExp(
          `/prebuilt/linux-${process.arch}/bridle-launch \\(prebuilt, checksum verified\\)`,
        ),
      );
      expect(report.installed?.shell).toMatchObject({ sandbox_kind: "landlock", exit_code: 0 });
      expect(report.installed?.mcp.tools).toEqual(expect.arrayContaining(["shell", "read_file"]));
      expect(report.installed?.mcp).toMatchObject({ isError: false, sandbox_kind: "landlock" });
    }
    const core = report.packages.find((pkg) => pkg.name === "@agent-bridle/core");
    expect(core?.entryPoints.map((entry) => entry.specifier)).toContain(
      "@agent-bridle/core/caveats.schema.json",
    );
  }, 900_000);
});
