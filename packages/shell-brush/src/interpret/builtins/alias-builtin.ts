/** `alias` and `unalias`; `BASH_ALIASES` mirrors the table. */

import type { ShellState } from "../state/state.js";
import type { Builtin, BuiltinContext } from "./builtin-context.js";

function quote(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}

/** Keep `BASH_ALIASES` (an associative array) in step with the alias table. */
export function syncAliases(state: ShellState): void {
  const variable = state.lookupRaw("BASH_ALIASES");
  if (variable !== undefined && !variable.assoc) return;
  state.setArray("BASH_ALIASES", new Map(state.aliases), true);
}

function show(context: BuiltinContext, name: string, value: string): void {
  context.stdout.write(`alias ${name}=${quote(value)}\n`);
}

export const alias: Builtin = (context, args) => {
  const aliases = context.state.aliases;
  const operands = args[0] === "-p" ? args.slice(1) : args;
  if (operands.length === 0) {
    for (const name of [...aliases.keys()].sort()) show(context, name, aliases.get(name) ?? "");
    return 0;
  }
  let status = 0;
  for (const operand of operands) {
    const equals = operand.indexOf("=");
    if (equals > 0) {
      aliases.set(operand.slice(0, equals), operand.slice(equals + 1));
      continue;
    }
    const value = aliases.get(operand);
    if (value === undefined) {
      context.error(`alias: ${operand}: not found`);
      status = 1;
    } else show(context, operand, value);
  }
  syncAliases(context.state);
  return status;
};

export const unalias: Builtin = (context, args) => {
  if (args[0] === "-a") {
    context.state.aliases.clear();
    syncAliases(context.state);
    return 0;
  }
  if (args.length === 0) {
    context.error("unalias: usage: unalias [-a] name [name ...]");
    return 2;
  }
  let status = 0;
  for (const name of args) {
    if (!context.state.aliases.delete(name)) {
      context.error(`unalias: ${name}: not found`);
      status = 1;
    }
  }
  syncAliases(context.state);
  return status;
};
