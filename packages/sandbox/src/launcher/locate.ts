import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { access, chmod, readFile, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ConfigurationError } from "@agent-bridle/core";
import type { LauncherBinary } from "./types.js";

// Both src/launcher/ and dist/launcher/ sit two levels below the package root.
const packageRoot = fileURLToPath(new URL("../../", import.meta.url));

type Candidate = { readonly path: string; readonly source: LauncherBinary["source"] };

/** The architectures a static launcher is shipped for, as `process.arch` names them. */
export const prebuiltArchitectures: readonly NodeJS.Architecture[] = ["x64", "arm64"];

/** The shipped static launcher for `arch` (relative to the package root), if there is one. */
export function prebuiltLauncherPath(arch: string = process.arch): string | undefined {
  return prebuiltArchitectures.includes(arch as NodeJS.Architecture)
    ? `prebuilt/linux-${arch}/bridle-launch`
    : undefined;
}

function candidatesIn(root: string): readonly Candidate[] {
  const base = root.endsWith("/") ? root : `${root}/`;
  const prebuilt = prebuiltLauncherPath();
  return [
    { path: `${base}dist/native/bridle-launch`, source: "built" },
    ...(prebuilt === undefined
      ? []
      : [{ path: `${base}${prebuilt}`, source: "prebuilt" as const }]),
  ];
}

/**
 * Gives a verified launcher back the execute bit an unpacker dropped (`pnpm pack` stores
 * files outside `bin` as 0644, so an installed package has a launcher nobody can run).
 * Only called after the checksum matched, so a corrupted file is never made executable.
 * Throws `ConfigurationError` saying what to run when the file cannot be changed.
 */
async function ensureExecutable(path: string): Promise<void> {
  try {
    await access(path, constants.X_OK);
    return;
  } catch {
    // not executable: restore the bits below
  }
  try {
    const { mode } = await stat(path);
    await chmod(path, (mode & 0o7777) | 0o555);
    await access(path, constants.X_OK);
  } catch (error) {
    throw new ConfigurationError(
      `bridle-launch at ${JSON.stringify(path)} is not executable (the package was unpacked without its execute bit) and could not be made so (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): run chmod 755 on it, or reinstall as the user who owns it`,
    );
  }
}

/** Where the launcher is looked for, in order (exported for tests). */
export const launcherCandidates: readonly Candidate[] = candidatesIn(packageRoot);

/**
 * Checks `path` against its `<path>.sha256` sidecar (sha256sum format) and makes it
 * executable if an unpacker dropped the bit. Returns the binary, `undefined` when it is
 * absent, and throws `ConfigurationError` on a mismatch (a tampered or corrupted launcher
 * is refused, never run) or when the execute bit cannot be restored.
 */
export async function verifyLauncher(
  path: string,
  source: LauncherBinary["source"],
): Promise<LauncherBinary | undefined> {
  let bytes: Buffer;
  let expected: string;
  try {
    bytes = await readFile(path);
    expected = (await readFile(`${path}.sha256`, "utf8")).trim().split(/\s+/)[0] ?? "";
  } catch {
    return undefined;
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if (sha256 !== expected.toLowerCase()) {
    throw new ConfigurationError(
      `bridle-launch checksum mismatch at ${JSON.stringify(path)}: refusing to use it`,
    );
  }
  await ensureExecutable(path);
  return { path, source, sha256 };
}

/**
 * Finds the launcher: the one the build step compiled, else the shipped prebuilt static
 * binary for `process.arch` (linux-x64, linux-arm64). Both are checksum-verified; `undefined` off Linux or when
 * neither exists (the backend is then `none`). A checksum mismatch throws.
 */
export function locateLauncher(): Promise<LauncherBinary | undefined> {
  return locateLauncherIn(packageRoot);
}

let locatedOnce: Promise<LauncherBinary | undefined> | undefined;

/**
 * `locateLauncher`, found and checksum-verified once per process (as a backend does once
 * per instance): for engines that name the launcher on every call, where reading and
 * hashing the binary each time was a cost on every spawn.
 */
export function locateLauncherOnce(): Promise<LauncherBinary | undefined> {
  locatedOnce ??= locateLauncher();
  return locatedOnce;
}

/**
 * `locateLauncher` for a copy of this package found elsewhere (`root` is its directory):
 * for a bundled file whose own `import.meta.url` is not this package's.
 */
export async function locateLauncherIn(root: string): Promise<LauncherBinary | undefined> {
  if (process.platform !== "linux") return undefined;
  for (const candidate of candidatesIn(root)) {
    const found = await verifyLauncher(candidate.path, candidate.source);
    if (found !== undefined) return found;
  }
  return undefined;
}
