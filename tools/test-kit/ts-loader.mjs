// Module hooks that let a plain `node` run a suite's TypeScript (a child the suite starts,
// often as another user through setpriv: `node --import <this file> child.ts …`; its
// path is `tsLoaderPath()`). Types are stripped by vite's `transformWithOxc` (what vitest
// uses); a relative `./x.js` import from a `.ts` file finds `./x.ts`. Workspace packages
// resolve to their built `dist`, or to their source under
// `--conditions=@agent-bridle/source`.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { register } from "node:module";
import { fileURLToPath } from "node:url";
import { isMainThread } from "node:worker_threads";

// Imported with --import (main thread): install this same file as the hooks module.
if (isMainThread) register(import.meta.url);

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (parent?.endsWith(".ts") && specifier.startsWith(".") && specifier.endsWith(".js")) {
    const candidate = new URL(`${specifier.slice(0, -3)}.ts`, parent);
    if (existsSync(fileURLToPath(candidate))) return { url: candidate.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

let transform;

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
  transform ??= (await import("vite")).transformWithOxc;
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, "utf8"), path, { lang: "ts" });
  return { format: "module", source: code, shortCircuit: true };
}
