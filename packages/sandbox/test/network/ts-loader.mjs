// Module hooks that let a plain `node` run this suite's TypeScript (the child that runs
// the egress scenarios, as root and as nobody). Types are stripped by vite's
// `transformWithOxc` (what vitest uses); `./x.js` from a `.ts` file finds `./x.ts`; run
// with `--conditions=@agent-bridle/source` so workspace packages resolve to their source.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { register } from "node:module";
import { fileURLToPath } from "node:url";
import { isMainThread } from "node:worker_threads";

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
