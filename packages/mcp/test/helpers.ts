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

/**
 * A grant as the server reads it from `AGENT_BRIDLE_CAVEATS`, every field given: the axes
 * `caveats` does not name grant nothing (`only: []`).
 */
export function grantJson(caveats: Record<string, unknown>): string {
  return JSON.stringify({
    fs_read: { only: [] },
    fs_write: { only: [] },
    exec: { only: [] },
    net: { only: [] },
    max_calls: "unlimited",
    valid_for_generation: "all",
    ...caveats,
  });
}

/**
 * A grant as `grantJson` builds it, but the axes `caveats` does not name are whole
 * (`"all"`): for tests about something other than the grant.
 */
export function openGrantJson(caveats: Record<string, unknown> = {}): string {
  return grantJson({ fs_read: "all", fs_write: "all", exec: "all", net: "all", ...caveats });
}

/** The text a tool result shows the model. */
export function resultText(result: object): string {
  const content = (result as { content?: { text?: string }[] }).content ?? [];
  return content.map((part) => part.text ?? "").join("");
}

/** The codes of a tool result's denials (its `structuredContent`). */
export function denialCodes(result: object): string[] {
  const structured = (result as { structuredContent?: { denials?: { code: string }[] } })
    .structuredContent;
  return (structured?.denials ?? []).map((denial) => denial.code);
}
