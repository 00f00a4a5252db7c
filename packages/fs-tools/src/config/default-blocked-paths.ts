import { homedir } from "node:os";
import { defaultPathPolicy, type PathPolicy } from "@agent-bridle/core";

function knownHome(): string | undefined {
  try {
    const home = homedir();
    return home === "" ? undefined : home;
  } catch {
    return undefined;
  }
}

/**
 * `FileConfig`'s default `blockedPaths` (spec §5): the system and credential locations of
 * the platform this process runs on, under this user's home directory, plus, for writes
 * only, the agent-controlled configuration that would run code later (`**\/.git/hooks/**`,
 * `**\/.vscode/**`, `**\/.claude/**`, `**\/.mcp.json`, shell rc files, the leash's own
 * configuration…). When the home directory is unknown, the credential names are blocked
 * anywhere instead (fail closed). Computed on each call: `core` never reads the
 * environment, so this package supplies the platform, home and `%APPDATA%`.
 */
export function defaultBlockedPaths(): PathPolicy {
  return defaultPathPolicy({
    platform: process.platform,
    home: knownHome(),
    appData: process.platform === "win32" ? process.env.APPDATA : undefined,
  });
}
