import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Caveats, ConfigurationError, checkContained } from "@agent-bridle/core";

/** The author and committer of commits a call makes (`user.name`, `user.email`). */
export interface GitIdentity {
  readonly name: string;
  readonly email: string;
}

/**
 * The identity of commits when the host configures none: marks them as the agent's, so
 * `git commit` works and nobody's name is borrowed (ADR 0013).
 */
export const DEFAULT_GIT_IDENTITY: GitIdentity = Object.freeze({
  name: "agent-bridle",
  email: "agent-bridle@localhost",
});

const hasControlCharacter = (value: string) =>
  [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** Refuses an identity git could not store on one line (checked once, at construction). */
export function checkGitIdentity(identity: GitIdentity | undefined): void {
  if (identity === undefined) return;
  for (const [field, value] of Object.entries(identity)) {
    if (typeof value !== "string" || value.trim() === "" || hasControlCharacter(value)) {
      throw new ConfigurationError(
        `gitIdentity.${field} must be a non-empty string without control characters`,
      );
    }
  }
}

/**
 * Whether the configured `HOME` is one the call may read (kernel-boundary.md §3): inside
 * a granted `fs_read` root, or everywhere under `fs_read: "all"` (its secrets stay masked).
 */
export function homeIsGranted(home: string, caveats: Caveats): boolean {
  const read = caveats.fs_read;
  return read === "all" || read.only.some((root) => checkContained(home, root));
}

const quoted = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * A call's private home, `<callDir>/home` (0700): the configured git identity, and
 * `safe.directory = *` — everything git runs stays inside the call's grant, so a
 * repository another user owns carries no more risk than the grant already does.
 */
export async function createPrivateHome(
  callDir: string,
  identity: GitIdentity = DEFAULT_GIT_IDENTITY,
): Promise<string> {
  const home = join(callDir, "home");
  await mkdir(home, { mode: 0o700 });
  const config = [
    "[user]",
    `\tname = ${quoted(identity.name)}`,
    `\temail = ${quoted(identity.email)}`,
    "[safe]",
    "\tdirectory = *",
    "",
  ].join("\n");
  await writeFile(join(home, ".gitconfig"), config, { mode: 0o600 });
  return home;
}
