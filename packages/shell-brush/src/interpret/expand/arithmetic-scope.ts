/** Shell variables as the arithmetic evaluator sees them (`set -u` applies). */
import type { ArithmeticScope } from "@agent-bridle/bash";
import { ExpansionError } from "../signals.js";
import type { ShellState } from "../state/state.js";

export function arithmeticScope(state: ShellState): ArithmeticScope {
  return {
    get: (name, index) => {
      const value = lookupArithmetic(state, name, index);
      if (value === undefined && state.options.nounset)
        throw new ExpansionError(
          `${index === null ? name : `${name}[${index}]`}: unbound variable`,
        );
      return value;
    },
    set: (name, index, value) => {
      if (index === null || state.resolveName(name).includes("[")) state.set(name, value);
      else state.setElement(name, index, value);
    },
  };
}

function lookupArithmetic(
  state: ShellState,
  name: string,
  index: string | null,
): string | undefined {
  if (index === null || state.resolveName(name).includes("[")) return state.get(name);
  const variable = state.lookup(name);
  if (variable === undefined) return undefined;
  if (variable.array === null) return index === "0" ? (variable.value ?? undefined) : undefined;
  return variable.array.get(index);
}
