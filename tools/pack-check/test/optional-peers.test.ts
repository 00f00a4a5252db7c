import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { optionalPeerSpecifiers } from "../src/optional-peers.js";

const root = mkdtempSync(join(tmpdir(), "bridle-pack-peers-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function manifest(root: string, name: string, fields: Record<string, unknown>) {
  const dir = join(root, name.replace("/", "+"));
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "0.0.0", ...fields }));
  return { name, version: "0.0.0", dir };
}

describe("optionalPeerSpecifiers", () => {
  it("lists the optional peers outside the workspace, once each, and no required or workspace peer", async () => {
    const packages = [
      manifest(root, "@x/adapters", {
        peerDependencies: { ai: "^6.0.0", "@x/core": "*", required: "^1.0.0", other: "^2.0.0" },
        peerDependenciesMeta: {
          ai: { optional: true },
          "@x/core": { optional: true },
          other: { optional: true },
        },
      }),
      manifest(root, "@x/core", {}),
      manifest(root, "@x/more", {
        peerDependencies: { ai: "^6.0.0" },
        peerDependenciesMeta: { ai: { optional: true } },
      }),
    ];
    expect(await optionalPeerSpecifiers(packages)).toEqual(["ai@^6.0.0", "other@^2.0.0"]);
  });
});
