/** `enable`: list the builtins, or turn some off (`-n`) and on again. */
import type { Builtin } from "./builtin-context.js";

/** The builtin table's names, as `enable` knows them (set by builtins.ts). */
let builtinNames: () => readonly string[] = () => [];

export function setBuiltinNames(names: () => readonly string[]): void {
  builtinNames = names;
}

export const enable: Builtin = (context, args) => {
  let disable = false;
  let all = false;
  let index = 0;
  for (; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "--") {
      index += 1;
      break;
    }
    // `-f`/`-d` load and unload shared objects: never here (no dlopen from a script).
    if (/^-[anpsfd]*[fd]/.test(arg)) {
      context.error("enable: dynamic loading not available");
      return 1;
    }
    if (!/^-[anps]+$/.test(arg)) break;
    for (const flag of arg.slice(1)) {
      if (flag === "n") disable = true;
      else if (flag === "a") all = true;
    }
  }
  const names = args.slice(index);
  const disabled = context.state.disabledBuiltins;
  if (names.length === 0) {
    for (const name of [...builtinNames()].sort()) {
      const off = disabled.has(name);
      if (!all && off !== disable) continue;
      context.stdout.write(`enable ${off ? "-n " : ""}${name}\n`);
    }
    return 0;
  }
  let status = 0;
  for (const name of names) {
    if (!builtinNames().includes(name)) {
      context.error(`enable: ${name}: not a shell builtin`);
      status = 1;
    } else if (disable) disabled.add(name);
    else disabled.delete(name);
  }
  return status;
};
