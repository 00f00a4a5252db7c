import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { PublishablePackage } from "./publishable.js";

interface PeerManifest {
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
}

/**
 * `name@range` for every optional peer dependency of the packages that is not itself one
 * of them (the adapters' frameworks): npm installs no optional peer, and the consumer
 * must have them to import every entry point, as a host using each entry point would.
 */
export async function optionalPeerSpecifiers(
  packages: readonly PublishablePackage[],
): Promise<string[]> {
  const names = new Set(packages.map((pkg) => pkg.name));
  const specifiers = new Map<string, string>();
  for (const pkg of packages) {
    const manifest = JSON.parse(
      await readFile(join(pkg.dir, "package.json"), "utf8"),
    ) as PeerManifest;
    for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
      if (names.has(name) || manifest.peerDependenciesMeta?.[name]?.optional !== true) continue;
      specifiers.set(name, `${name}@${range}`);
    }
  }
  return [...specifiers.values()].sort();
}
