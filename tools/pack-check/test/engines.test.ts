import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { publishablePackages } from "../src/publishable.js";

// Issue 17 ("Build": packaging that works from the registry): every published package
// says which Node it needs (the workspace's own floor, root package.json), so npm warns
// on an older Node instead of the package failing at run time.
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

describe("published manifests", () => {
  it("every publishable package declares the workspace's engines.node", async () => {
    const root = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8"));
    const floor: unknown = root.engines?.node;
    expect(floor).toMatch(/^>=\d+\.\d+\.\d+$/);
    const packages = await publishablePackages(repoRoot);
    expect(packages.length).toBeGreaterThan(5);
    const missing: string[] = [];
    for (const { name, dir } of packages) {
      const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
      if (manifest.engines?.node !== floor) missing.push(`${name}: ${manifest.engines?.node}`);
    }
    expect(missing).toEqual([]);
  });
});
