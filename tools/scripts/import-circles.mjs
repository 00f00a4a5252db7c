#!/usr/bin/env node
// Counts import circles (strongly connected components of more than one file, or a file
// importing itself) among the relative imports of the TypeScript sources under the given
// directories (default: packages/*/src and tools/*/src). Type-only imports count as edges
// unless --runtime is given. Prints one line per circle (its size and files) and a total.
//
//   node tools/scripts/import-circles.mjs [--runtime] [dir…]
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const args = process.argv.slice(2);
const runtimeOnly = args.includes("--runtime");
let roots = args.filter((a) => !a.startsWith("--"));
if (roots.length === 0) {
  roots = [];
  for (const top of ["packages", "tools"]) {
    for (const name of readdirSync(top)) {
      const src = join(top, name, "src");
      try {
        if (statSync(src).isDirectory()) roots.push(src);
      } catch {}
    }
  }
}

function sources(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, out);
    else if (/\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name))
      out.push(resolve(path));
  }
  return out;
}

const IMPORT =
  /(?:^|\n)\s*(import|export)(\s+type)?\s[^;]*?\sfrom\s+["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;
const files = roots.flatMap((root) => sources(root, []));
const known = new Set(files);
const edges = new Map();
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const targets = new Set();
  for (const match of text.matchAll(IMPORT)) {
    if (runtimeOnly && match[2]) continue;
    const spec = match[3] ?? match[4];
    const target = resolve(dirname(file), spec.replace(/\.js$/, ".ts"));
    if (known.has(target)) targets.add(target);
  }
  edges.set(file, [...targets]);
}

// Tarjan's strongly connected components, iterative.
let index = 0;
const indices = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
const circles = [];
for (const start of files) {
  if (indices.has(start)) continue;
  const work = [[start, 0]];
  indices.set(start, index);
  low.set(start, index++);
  stack.push(start);
  onStack.add(start);
  while (work.length > 0) {
    const frame = work[work.length - 1];
    const [node, i] = frame;
    const next = edges.get(node);
    if (i < next.length) {
      frame[1]++;
      const to = next[i];
      if (!indices.has(to)) {
        indices.set(to, index);
        low.set(to, index++);
        stack.push(to);
        onStack.add(to);
        work.push([to, 0]);
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), indices.get(to)));
      continue;
    }
    work.pop();
    if (work.length > 0) {
      const parent = work[work.length - 1][0];
      low.set(parent, Math.min(low.get(parent), low.get(node)));
    }
    if (low.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edges.get(node).includes(node)) circles.push(component);
    }
  }
}

circles.sort((a, b) => b.length - a.length);
for (const circle of circles) {
  const names = circle.map((f) => relative(process.cwd(), f)).sort();
  console.log(`${circle.length} files: ${names.join(" ")}`);
}
console.log(
  `import circles: ${circles.length} (${runtimeOnly ? "runtime imports" : "all imports"}, ${files.length} files)`,
);
