/** The builtin signature and its argument helpers; `BuiltinContext` is the execution context's. */
import type { BuiltinContext } from "../exec-context.js";

export type { BuiltinContext } from "../exec-context.js";

export type Builtin = (context: BuiltinContext, args: string[]) => Promise<number> | number;

/** A numeric argument (`exit 3`, `shift 2`); null (reported) when it is not a number. */
export function numberArg(
  context: BuiltinContext,
  command: string,
  arg: string | undefined,
  fallback: number,
): number | null {
  if (arg === undefined) return fallback;
  if (!/^\s*[-+]?[0-9]+\s*$/.test(arg)) {
    context.error(`${command}: ${arg}: numeric argument required`);
    return null;
  }
  return Number(arg);
}
