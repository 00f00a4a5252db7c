import { existsSync } from "node:fs";
import { join } from "node:path";
import type { PublishablePackage } from "./publishable.js";
import { run, tail } from "./run.js";

/** The pinned pnpm (package.json `packageManager`), through the repository's wrapper. */
export function pnpm(repoRoot: string, args: readonly string[]) {
  return run("bash", ["--norc", "--noprofile", join(repoRoot, "tools/scripts/pnpm.sh"), ...args], {
    cwd: repoRoot,
  });
}

/**
 * Builds the packages (turbo, cached) so that what is packed is current. Through pnpm, so
 * turbo finds the package manager it runs the package scripts with.
 */
export async function buildPackages(repoRoot: string): Promise<void> {
  const result = await pnpm(repoRoot, [
    "exec",
    "turbo",
    "run",
    "build",
    "--filter=./packages/*",
    "--output-logs=errors-only",
  ]);
  if (result.code !== 0) {
    throw new Error(`pack check: the build failed\n${tail(result.stdout + result.stderr)}`);
  }
}

/** The file name `pnpm pack` gives a package's tarball. */
export function tarballName(pkg: { readonly name: string; readonly version: string }): string {
  return `${pkg.name.replace(/^@/, "").replace("/", "-")}-${pkg.version}.tgz`;
}

/**
 * Packs every package with pnpm, which rewrites `workspace:*` dependencies to the packed
 * versions (npm pack would leave them unresolvable). Returns each tarball's path.
 */
export async function packPackages(
  repoRoot: string,
  packages: readonly PublishablePackage[],
  destination: string,
): Promise<Map<string, string>> {
  const filters = packages.flatMap((pkg) => ["--filter", pkg.name]);
  const result = await pnpm(repoRoot, [
    "--recursive",
    ...filters,
    "pack",
    "--pack-destination",
    destination,
  ]);
  if (result.code !== 0) {
    throw new Error(`pack check: pnpm pack failed\n${tail(result.stdout + result.stderr)}`);
  }
  const tarballs = new Map<string, string>();
  for (const pkg of packages) {
    const path = join(destination, tarballName(pkg));
    if (!existsSync(path)) throw new Error(`pack check: pnpm pack did not produce ${path}`);
    tarballs.set(pkg.name, path);
  }
  return tarballs;
}
