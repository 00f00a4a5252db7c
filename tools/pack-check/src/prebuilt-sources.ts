import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The digest `build-launcher.mjs --prebuilt` records in `prebuilt/sources.sha256`: each
 * file of `native/`, sorted by name, as its name, a NUL, its bytes and a NUL.
 */
export async function nativeSourcesDigest(sandboxDir: string): Promise<string> {
  const native = join(sandboxDir, "native");
  const hash = createHash("sha256");
  for (const name of (await readdir(native)).sort()) {
    hash
      .update(`${name}\0`)
      .update(await readFile(join(native, name)))
      .update("\0");
  }
  return hash.digest("hex");
}

/**
 * Why the shipped static launchers may not be the ones the shipped sources build, if so:
 * an installed package runs `prebuilt/`, never a compiler, so a launcher older than the
 * TypeScript that drives it would be published.
 */
export async function prebuiltSourcesFailure(repoRoot: string): Promise<string | undefined> {
  const sandboxDir = join(repoRoot, "packages/sandbox");
  const recorded = (
    await readFile(join(sandboxDir, "prebuilt/sources.sha256"), "utf8").catch(() => "")
  ).split(/\s+/)[0];
  if (recorded === (await nativeSourcesDigest(sandboxDir))) return undefined;
  return "packages/sandbox/native changed since the prebuilt launchers were built: run `node packages/sandbox/scripts/build-launcher.mjs --prebuilt` (needs gcc-aarch64-linux-gnu) and commit prebuilt/";
}
