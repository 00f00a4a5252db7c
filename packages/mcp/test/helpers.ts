import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { useTempDirs as tempDirs } from "@agent-bridle-tools/test-kit";

export const packageRoot = fileURLToPath(new URL("../", import.meta.url));
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
export const serverBin = join(packageRoot, "dist/bin/agent-bridle-mcp.js");
export const bridleBin = join(packageRoot, "dist/bin/bridle.js");

/**
 * Builds the package (and what it references) so the spawned binaries are current. The
 * end-to-end tests run the built `dist/`, as an MCP client would.
 */
export function buildPackage(): void {
  execFileSync(
    process.execPath,
    [join(repoRoot, "node_modules/typescript/bin/tsc"), "-b", packageRoot],
    {
      cwd: repoRoot,
      stdio: "pipe",
    },
  );
  if (!existsSync(serverBin)) throw new Error(`build did not produce ${serverBin}`);
}

/** Temp directories (real paths) removed after the file's tests. */
export const useTempDirs = () => tempDirs("bridle-mcp-", "all");

export function writeConfig(home: string, toml: string): string {
  mkdirSync(join(home, ".agent-bridle"), { recursive: true });
  const file = join(home, ".agent-bridle", "config.toml");
  writeFileSync(file, toml);
  return file;
}

/** The environment a spawned server gets: nothing inherited but `PATH`. */
export function serverEnv(
  home: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ...extra };
}
