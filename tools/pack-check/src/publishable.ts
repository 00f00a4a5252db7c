import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** A workspace package that is published (not `private`), as its manifest says. */
export interface PublishablePackage {
  readonly name: string;
  readonly version: string;
  readonly dir: string;
}

/** Every non-private package under `packages/`, sorted by name. */
export async function publishablePackages(repoRoot: string): Promise<PublishablePackage[]> {
  const found: PublishablePackage[] = [];
  for (const entry of await readdir(join(repoRoot, "packages"), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(repoRoot, "packages", entry.name);
    let manifest: { name?: unknown; version?: unknown; private?: unknown };
    try {
      manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    } catch {
      continue;
    }
    if (manifest.private === true) continue;
    if (typeof manifest.name !== "string" || typeof manifest.version !== "string") {
      throw new Error(`${dir}/package.json has no name or version`);
    }
    found.push({ name: manifest.name, version: manifest.version, dir });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}
