import { mkdir, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BinRun, runBin } from "./bins.js";
import {
  entryPointsOf,
  installedManifest,
  installIntoEmptyProject,
  type LoadedEntryPoint,
  loadEntryPoints,
} from "./consumer.js";
import { type InstalledUse, installedUseFailures, useInstalled } from "./installed-use.js";
import { type LintMessage, lintTarball } from "./lint.js";
import { optionalPeerSpecifiers } from "./optional-peers.js";
import { buildPackages, packPackages } from "./pack.js";
import { prebuiltSourcesFailure } from "./prebuilt-sources.js";
import { publishablePackages } from "./publishable.js";

export interface PackageReport {
  readonly name: string;
  readonly version: string;
  readonly tarballBytes: number;
  readonly entryPoints: readonly LoadedEntryPoint[];
  readonly bins: readonly BinRun[];
  readonly lint: readonly LintMessage[];
  /** Dependencies on workspace packages, as packed (`workspace:*` rewritten). */
  readonly workspaceDependencies: Readonly<Record<string, string>>;
}

export interface PackCheckOptions {
  readonly repoRoot: string;
  /** Build first (turbo, cached). Default true. */
  readonly build?: boolean;
  /** Keep the temporary directory (for inspection). Default false. */
  readonly keep?: boolean;
  readonly log?: (line: string) => void;
}

export interface PackCheckReport {
  readonly packages: readonly PackageReport[];
  /** The installed packages used for real (Linux only: the launcher is Linux's). */
  readonly installed?: InstalledUse;
  /** Every reason the check fails: empty when it passes. */
  readonly failures: readonly string[];
  readonly workDir: string;
}

/**
 * The packaging check (issues 9, 17): build, `pnpm pack` each published package, `npm install`
 * every tarball together into an empty project, import each package's entry points and
 * run its bins there, and publint each tarball; on Linux, use the installed packages as a
 * user would (`bridle doctor`, a confined `shell` call, the MCP server; `useInstalled`). Loading and installing failures throw
 * (with what npm or Node said); publint findings and workspace dependencies left as
 * `workspace:` are collected in `failures`.
 */
export async function packCheck(options: PackCheckOptions): Promise<PackCheckReport> {
  const { repoRoot } = options;
  const log = options.log ?? (() => {});
  const workDir = await mkdtemp(join(tmpdir(), "bridle-pack-check-"));
  try {
    const packages = await publishablePackages(repoRoot);
    if (options.build !== false) {
      log("building the packages");
      await buildPackages(repoRoot);
    }
    log(`packing ${packages.length} packages with pnpm`);
    const tarballs = await packPackages(repoRoot, packages, join(workDir, "tarballs"));
    const projectDir = join(workDir, "consumer");
    const peers = await optionalPeerSpecifiers(packages);
    log("installing every tarball (and the optional peers) into an empty project with npm");
    await installIntoEmptyProject(projectDir, [...tarballs.values(), ...peers]);
    const home = join(workDir, "home");
    await mkdir(home);
    const names = new Set(packages.map((pkg) => pkg.name));
    const reports: PackageReport[] = [];
    const failures: string[] = [];
    for (const pkg of packages) {
      const tarball = tarballs.get(pkg.name) as string;
      const manifest = await installedManifest(projectDir, pkg.name);
      const entryPoints = await loadEntryPoints(projectDir, entryPointsOf(manifest));
      if (entryPoints.length === 0) failures.push(`${pkg.name}: no entry point to load`);
      const binNames =
        typeof manifest.bin === "string"
          ? [pkg.name.replace(/^@[^/]+\//, "")]
          : Object.keys(manifest.bin ?? {});
      const bins: BinRun[] = [];
      for (const bin of binNames) bins.push(await runBin(projectDir, home, bin));
      const lint = await lintTarball(tarball);
      for (const message of lint) {
        if (message.type !== "suggestion") failures.push(`${pkg.name}: publint: ${message.text}`);
      }
      const workspaceDependencies = Object.fromEntries(
        Object.entries(manifest.dependencies ?? {}).filter(([name]) => names.has(name)),
      );
      for (const [name, range] of Object.entries(workspaceDependencies)) {
        if (range.startsWith("workspace:")) {
          failures.push(`${pkg.name}: dependency ${name} was packed as ${range}`);
        }
      }
      reports.push({
        name: pkg.name,
        version: pkg.version,
        tarballBytes: (await stat(tarball)).size,
        entryPoints,
        bins,
        lint,
        workspaceDependencies,
      });
      log(summaryLine(reports.at(-1) as PackageReport));
    }
    const sources = await prebuiltSourcesFailure(repoRoot);
    if (sources !== undefined) failures.push(sources);
    if (process.platform !== "linux") return { packages: reports, failures, workDir };
    log("using the installed packages: bridle doctor, a confined shell call, the MCP server");
    const work = join(workDir, "work");
    await mkdir(work);
    const installed = await useInstalled(projectDir, home, work);
    failures.push(...installedUseFailures(installed));
    return { packages: reports, installed, failures, workDir };
  } finally {
    if (options.keep !== true) await rm(workDir, { recursive: true, force: true });
  }
}

/** One line per package: size, entry points loaded, bins run, publint's verdict. */
export function summaryLine(report: PackageReport): string {
  const size = `${(report.tarballBytes / 1024).toFixed(1)} KiB`;
  const entries = report.entryPoints
    .map((entry) => `${entry.specifier} (${entry.exports} exports)`)
    .join(", ");
  const bins =
    report.bins.length === 0 ? "" : `; bins ran: ${report.bins.map((b) => b.bin).join(", ")}`;
  const findings = report.lint.filter((message) => message.type !== "suggestion").length;
  const lint = findings === 0 ? "publint clean" : `publint: ${findings} finding(s)`;
  return `${report.name}@${report.version}: ${size}, loaded ${entries}${bins}; ${lint}`;
}

/** The repository root, found from a file inside it (the one with `pnpm-workspace.yaml`). */
export async function repoRootFrom(start: string): Promise<string> {
  let dir = start;
  for (;;) {
    try {
      await readFile(join(dir, "pnpm-workspace.yaml"));
      return dir;
    } catch {
      const parent = join(dir, "..");
      if (parent === dir) throw new Error(`no pnpm-workspace.yaml above ${start}`);
      dir = parent;
    }
  }
}
