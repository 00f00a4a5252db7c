import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Changesets read the package list from YAML front matter. A formatter that rewrites it
// (Biome once turned a one-package list into a markdown heading) silently empties the
// release: every changeset must keep a list of published packages and a body.
const root = new URL("../../../", import.meta.url).pathname;
const directory = join(root, ".changeset");

function publishedPackages(): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(join(root, "packages"))) {
    const manifest = JSON.parse(
      readFileSync(join(root, "packages", entry, "package.json"), "utf8"),
    );
    if (manifest.private !== true) names.add(manifest.name);
  }
  return names;
}

const changesets = readdirSync(directory).filter(
  (name) => name.endsWith(".md") && name !== "README.md",
);

describe("changesets", () => {
  const published = publishedPackages();
  it.each(changesets)("%s names published packages in its front matter and says why", (name) => {
    const text = readFileSync(join(directory, name), "utf8");
    const match = /^---\n((?:"[^"]+": (?:major|minor|patch)\n)+)---\n([\s\S]*)$/.exec(text);
    expect(match, 'front matter: ---, one `"package": bump` line each, ---').not.toBeNull();
    const packages = [...(match?.[1] ?? "").matchAll(/"([^"]+)"/g)].map((found) => found[1]);
    for (const pkg of packages) expect(published).toContain(pkg);
    expect((match?.[2] ?? "").trim().length).toBeGreaterThan(0);
  });
});
