import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ConfigurationError } from "@agent-bridle/core";
import type { LauncherBinary } from "./types.js";

// Both src/launcher/ and dist/launcher/ sit two levels below the package root.
const packageRoot = fileURLToPath(new URL("../../", import.meta.url));

type Candidate = { readonly path: string; readonly source: LauncherBinary["source"] };

function candidatesIn(root: string): readonly Candidate[] {
  const base = root.endsWith("/") ? root : `${root}/`;
  return [
    { path: `${base}dist/native/bridle-launch`, source: "built" },
    { path: `${base}prebuilt/linux-x64/bridle-launch`, source: "prebuilt" },
  ];
}

/** Where the launcher is looked for, in order (exported for tests). */
export const launcherCandidates: readonly Candidate[] = candidatesIn(packageRoot);

/**
 * Checks `path` against its `<path>.sha256` sidecar (sha256sum format). Returns the
 * binary, `undefined` when it is absent, and throws `ConfigurationError` on a mismatch: a tampered
 * or corrupted launcher is refused, never run.
 */
export async function verifyLauncher(
  path: string,
  source: LauncherBinary["source"],
): Promise<LauncherBinary | undefined> {
  let bytes: Buffer;
  let expected: string;
  try {
    await access(path, constants.X_OK);
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
  return { path, source, sha256 };
}

/**
 * Finds the launcher: the one the build step compiled, else the shipped prebuilt static
 * binary (linux-x64 only). Both are checksum-verified; `undefined` off Linux or when
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
    if (candidate.source === "prebuilt" && process.arch !== "x64") continue;
    const found = await verifyLauncher(candidate.path, candidate.source);
    if (found !== undefined) return found;
  }
  return undefined;
}
