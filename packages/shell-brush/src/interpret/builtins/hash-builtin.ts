/** `hash`: the table of programs found on `PATH` (`-p`, `-t`, `-d`, `-r`, `-l`). */

import { isCarried } from "../commands/external-command.js";
import type { Builtin } from "./builtin-context.js";

export const hash: Builtin = async (context, args) => {
  const table = context.state.hashed;
  let mode: "p" | "t" | "d" | null = null;
  let reset = false;
  let listing = false;
  let path: string | undefined;
  const names: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (names.length > 0 || !/^-[prtdl]+$/.test(arg)) {
      names.push(arg);
      continue;
    }
    for (const flag of arg.slice(1)) {
      if (flag === "r") reset = true;
      else if (flag === "l") listing = true;
      else if (flag === "p") {
        mode = "p";
        path = args[++index];
      } else mode = flag as "t" | "d";
    }
  }
  if (reset) table.clear();
  if (mode === "p") {
    for (const name of names) table.set(name, path ?? "");
    return 0;
  }
  if (names.length === 0) {
    if (reset) return 0;
    if (table.size === 0) {
      if (!listing) context.stdout.write("hash: hash table empty\n");
      return 0;
    }
    if (listing)
      for (const [name, file] of table) context.stdout.write(`builtin hash -p ${file} ${name}\n`);
    else {
      context.stdout.write("hits\tcommand\n");
      for (const file of table.values()) context.stdout.write(`   1\t${file}\n`);
    }
    return 0;
  }
  let status = 0;
  for (const name of names) {
    if (mode === "t" || mode === "d") {
      const file = table.get(name);
      if (file === undefined) {
        context.error(`hash: ${name}: not found`);
        status = 1;
      } else if (mode === "d") table.delete(name);
      else if (listing) context.stdout.write(`builtin hash -p ${file} ${name}\n`);
      else context.stdout.write(names.length > 1 ? `${name}\t${file}\n` : `${file}\n`);
      continue;
    }
    // Builtins and the in-process utilities are not looked up (bash skips builtins).
    if (name.includes("/") || context.interpreter.isBuiltin(name) || isCarried(name)) continue;
    table.delete(name);
    const found = await context.interpreter.resolveCommand(name);
    if ("path" in found) table.set(name, found.path);
    else {
      context.error(`hash: ${name}: not found`);
      status = 1;
    }
  }
  return status;
};
