import { lstat, open, readlink, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { resolveOnSearchPath } from "@agent-bridle/core";

// A granted program is more than its file (kernel-boundary.md §3, ADR 0013): the links it
// is reached through, the interpreter its `#!` line names, and the helpers it runs as part
// of itself (`git`'s exec-path, the compiler driver's passes). The exec axis grants
// programs, not files, so these are executable wherever the program is.

const MAX_HOPS = 40;

/**
 * Every path a program's spelling passes through on its way to the file (`/usr/bin/cc`,
 * `/etc/alternatives/cc`, `/usr/bin/gcc`, …, the real file), each with its directory in
 * its real location: the private view recreates links hop by hop, so a hop left out
 * breaks the chain with `ENOENT`.
 */
export async function linkChain(path: string): Promise<string[]> {
  const chain: string[] = [];
  let current = path;
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    let located: string;
    let link: boolean;
    try {
      located = resolve(await realpath(dirname(current)), basename(current));
      link = (await lstat(located)).isSymbolicLink();
    } catch {
      return chain;
    }
    // The spelling itself as given (a granted path); later hops in their real directories.
    if (hop === 0 && !chain.includes(current)) chain.push(current);
    if (!chain.includes(located)) chain.push(located);
    if (!link) return chain;
    let target: string;
    try {
      target = await readlink(located);
    } catch {
      return chain;
    }
    current = isAbsolute(target) ? target : resolve(dirname(located), target);
  }
  return chain;
}

/** The interpreter a script's `#!` line names (and, for `env NAME`, NAME on the trusted PATH). */
async function interpreterOf(file: string): Promise<string[]> {
  const head = Buffer.alloc(256);
  let length = 0;
  try {
    const handle = await open(file, "r");
    try {
      length = (await handle.read(head, 0, head.length, 0)).bytesRead;
    } finally {
      await handle.close();
    }
  } catch {
    return [];
  }
  if (length < 3 || head[0] !== 0x23 || head[1] !== 0x21) return [];
  const line = head.subarray(2, length).toString("latin1").split("\n")[0] ?? "";
  const [interpreter, ...rest] = line.trim().split(/[ \t]+/);
  if (interpreter === undefined || !isAbsolute(interpreter)) return [];
  if (basename(interpreter) !== "env") return [interpreter];
  const name = rest.find((word) => !word.startsWith("-"));
  const found = name === undefined ? undefined : await resolveOnSearchPath(name);
  return found === undefined ? [interpreter] : [interpreter, found];
}

/**
 * Helpers of well-known programs, by the real file's name: directory trees (whole) and
 * programs by name (on the trusted PATH, as the program finds them).
 */
const HELPERS: readonly {
  readonly name: RegExp;
  readonly trees: readonly string[];
  readonly programs: readonly string[];
}[] = [
  // git runs its sub-commands from its exec-path, and transports and aliases through sh.
  { name: /^git$/, trees: ["/usr/lib/git-core", "/usr/libexec/git-core"], programs: ["sh"] },
  // A compiler driver runs its passes (cc1, collect2, lto-wrapper), the assembler and
  // the linker.
  {
    name: /^(.+-)?(gcc|g\+\+|cc|c\+\+)(-[\d.]+)?$/,
    trees: ["/usr/lib/gcc", "/usr/libexec/gcc"],
    programs: ["as", "ld"],
  },
  // make runs a recipe line with shell syntax through sh; GNU tar runs its compressor
  // (`-z`, `-I`) as `sh -c`: the compressor itself must be granted.
  { name: /^g?make$/, trees: [], programs: ["sh"] },
  { name: /^g?tar$/, trees: [], programs: ["sh"] },
];

/**
 * What must be executable (and visible) for `program` (absolute) to run as itself: its
 * link chain, its interpreter's, and its helpers' (directories whole), existing ones only.
 */
export async function programParts(program: string): Promise<string[]> {
  const parts = new Set<string>();
  const add = async (path: string) => {
    for (const hop of await linkChain(path)) parts.add(hop);
  };
  await add(program);
  let real: string;
  try {
    real = await realpath(program);
  } catch {
    return [...parts];
  }
  for (const interpreter of await interpreterOf(real)) await add(interpreter);
  for (const helper of HELPERS) {
    if (!helper.name.test(basename(real))) continue;
    // A missing tree has no chain: linkChain returns nothing for it.
    for (const tree of helper.trees) await add(tree);
    for (const name of helper.programs) {
      const found = await resolveOnSearchPath(name);
      if (found !== undefined) await add(found);
    }
  }
  return [...parts];
}
