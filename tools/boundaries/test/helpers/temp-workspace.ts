import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { LAYERS } from "../../src/index.js";

/** Relative path → file content. */
export type Tree = Readonly<Record<string, string>>;

function manifest(name: string, dependencies: readonly string[], extra: object = {}): string {
  const deps = Object.fromEntries(dependencies.map((dependency) => [dependency, "workspace:*"]));
  const body = { name, type: "module", exports: { ".": "./src/index.ts" }, ...extra };
  return `${JSON.stringify({ ...body, dependencies: deps }, null, 2)}\n`;
}

/** Every package of the layer table, each depending on (and importing) the layer below it. */
export function cleanTree(): Tree {
  const tree: Record<string, string> = {};
  for (const entry of LAYERS) {
    const below = LAYERS.filter((candidate) => candidate.layer < entry.layer);
    const dependencies = below.map((candidate) => candidate.packageName);
    tree[`packages/${entry.directory}/package.json`] = manifest(entry.packageName, dependencies);
    tree[`packages/${entry.directory}/src/index.ts`] = [
      ...below.map((candidate, index) => `import * as m${index} from "${candidate.packageName}";`),
      `export const name = ${JSON.stringify(entry.packageName)};`,
      "",
    ].join("\n");
  }
  tree["tools/demo/package.json"] = manifest("@agent-bridle-tools/demo", ["@agent-bridle/core"]);
  tree["tools/demo/src/demo.ts"] = 'import { name } from "@agent-bridle/core";\nvoid name;\n';
  return tree;
}

export async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [relative, content] of Object.entries(tree)) {
    const file = path.join(root, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** A temp workspace holding the clean tree plus `overrides`; `remove()` deletes it. */
export async function createWorkspace(overrides: Tree = {}) {
  const root = await mkdtemp(path.join(os.tmpdir(), "bridle-boundaries-"));
  await writeTree(root, { ...cleanTree(), ...overrides });
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}

export { manifest };
