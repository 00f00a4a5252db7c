/** `unset [-fvn] name…`: variables (an array element, through namerefs) or functions. */

import { arrayKeys } from "../state/state.js";
import type { Builtin, BuiltinContext } from "./builtin-context.js";

/** `name[sub]` split into name and subscript, else null. */
function element(text: string): { name: string; key: string } | null {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/s.exec(text);
  return match === null ? null : { name: match[1] as string, key: match[2] as string };
}

/** Remove one element: an indexed subscript is arithmetic, negative from the end (bash). */
function unsetElement(context: BuiltinContext, name: string, key: string): void {
  const variable = context.state.lookup(name);
  if (variable === undefined) return;
  if (variable.array === null) {
    if (!variable.assoc && key === "0" && variable.value !== null) context.state.unset(name);
    return;
  }
  if (variable.assoc) {
    variable.array.delete(key);
    return;
  }
  let index = context.interpreter.expander.evaluate(key);
  if (index < 0n) {
    const keys = arrayKeys(variable);
    index += BigInt(Number(keys[keys.length - 1] ?? -1) + 1);
  }
  variable.array.delete(String(index));
}

export const unset: Builtin = (context, args) => {
  let functions = false;
  let nameref = false;
  let index = 0;
  for (; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "--") {
      index += 1;
      break;
    }
    if (!/^-[fvn]+$/.test(arg)) break;
    for (const flag of arg.slice(1)) {
      if (flag === "f") functions = true;
      else if (flag === "v") functions = false;
      else nameref = true;
    }
  }
  const state = context.state;
  let status = 0;
  for (const arg of args.slice(index)) {
    if (functions) {
      state.functions.delete(arg);
      continue;
    }
    try {
      // `-n` removes a nameref itself; otherwise the name the chain ends at goes.
      const target = nameref ? arg : state.resolveName(arg);
      const part = element(target);
      if (part !== null) unsetElement(context, part.name, part.key);
      else if (nameref) state.unset(arg, false);
      else if (state.lookup(arg) === undefined) state.functions.delete(arg);
      else state.unset(arg);
    } catch (error) {
      context.error(`unset: ${(error as Error).message}`);
      status = 1;
    }
  }
  return status;
};
