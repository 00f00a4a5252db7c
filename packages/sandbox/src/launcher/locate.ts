import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ConfigurationError } from "@agent-bridle/core";
import type { LauncherBinary } from "./types.js";

// Both src/launcher/ and dist/launcher/ sit two levels below the package root.
const packageRoot = fileURLToPath(new URL("../../", import.meta.url));

/** Where the launcher is looked for, in order (exported for tests). */
export const launcherCandidates: readonly {
  readonly path: string;
  readonly source: LauncherBinary["source"];
}[] = [
  { path: `${packageRoot}dist/native/bridle-launch`, source: "built" },
  { path: `${packageRoot}prebuilt/linux-x64/bridle-launch`, source: "prebuilt" },
];

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
export async function locateLauncher(): Promise<LauncherBinary | undefined> {
  if (process.platform !== "linux") return undefined;
  for (const candidate of launcherCandidates) {
    if (candidate.source === "prebuilt" && process.arch !== "x64") continue;
    const found = await verifyLauncher(candidate.path, candidate.source);
    if (found !== undefined) return found;
  }
  return undefined;
}
