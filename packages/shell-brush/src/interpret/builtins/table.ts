/** The builtin table: each name and its implementation (families live in their own files). */

import { AssignmentAbort, ExitSignal, LoopSignal, ReturnSignal } from "../signals.js";
import type { ShellState } from "../state/state.js";
import { alias, unalias } from "./alias-builtin.js";
import { type Builtin, type BuiltinContext, numberArg } from "./builtin-context.js";
import { caller } from "./caller-builtin.js";
import type { DeclarationOperand } from "./declaration-operand.js";
import { wordOperand } from "./declaration-operand.js";
import { declareBuiltin } from "./declare.js";
import { cd, dirs, popd, pushd, pwd } from "./directory-builtins.js";
import { enable, setBuiltinNames } from "./enable-builtin.js";
import { hash } from "./hash-builtin.js";
import { kill } from "./kill-builtin.js";
import { MORE_BUILTINS } from "./more-builtins.js";
import { echo, printf } from "./printf.js";
import { read } from "./read.js";
import { setBuiltin } from "./set-builtin.js";
import { source } from "./source-builtin.js";
import { bracket, test } from "./test-builtin.js";
import { trapBuiltin } from "./trap.js";
import { ulimit } from "./ulimit-builtin.js";
import { unset } from "./unset-builtin.js";
import { wait } from "./wait-builtin.js";

export type { Builtin, BuiltinContext } from "./builtin-context.js";

/** A declaration builtin: its operands typed as the parser saw them (assignment words, lists). */
export type DeclarationBuiltin = (
  context: BuiltinContext,
  operands: readonly DeclarationOperand[],
) => Promise<number>;

/**
 * `declare`, `typeset`, `local`, `export`, `readonly`. Reached by name with assignment
 * words they get typed operands; reached otherwise (`command export 'a=1'`, `builtin`)
 * every operand is a plain word, as in bash.
 */
export const DECLARATION_BUILTINS = new Map<string, DeclarationBuiltin>([
  ["export", (context, operands) => declareBuiltin("export", context, operands)],
  ["readonly", (context, operands) => declareBuiltin("readonly", context, operands)],
  ["declare", (context, operands) => declareBuiltin("declare", context, operands)],
  ["typeset", (context, operands) => declareBuiltin("declare", context, operands)],
  [
    "local",
    async (context, operands) => {
      if (context.state.funcNames.length === 0) {
        context.error("local: can only be used in a function");
        return 1;
      }
      return declareBuiltin("local", context, operands);
    },
  ],
]);

export const BUILTINS = new Map<string, Builtin>([
  ["exec", () => 0],
  ["trap", trapBuiltin],
  ["echo", echo],
  ["printf", printf],
  ["true", () => 0],
  [":", () => 0],
  ["false", () => 1],
  ["test", test],
  ["[", bracket],
  [
    "exit",
    (context, args) => {
      const status = numberArg(context, "exit", args[0], context.state.lastStatus);
      if (status === null) throw new ExitSignal(2);
      // The low byte of the whole number, however large (`exit 9223372036854775807` is 255).
      const whole =
        args[0] === undefined
          ? BigInt(status)
          : BigInt((args[0] as string).trim().replace(/^\+/, ""));
      throw new ExitSignal(Number(BigInt.asUintN(8, whole)));
    },
  ],
  [
    "return",
    (context, args) => {
      if (context.state.frames.length === 0) {
        context.error("return: can only `return' from a function or sourced script");
        return 1;
      }
      const status = numberArg(context, "return", args[0], context.state.lastStatus);
      throw new ReturnSignal(status === null ? 2 : status & 255);
    },
  ],
  [
    "break",
    (context, args) => {
      if (!context.inLoop) return 0;
      throw new LoopSignal("break", Math.max(1, Number(args[0] ?? 1)));
    },
  ],
  [
    "continue",
    (context, args) => {
      if (!context.inLoop) return 0;
      throw new LoopSignal("continue", Math.max(1, Number(args[0] ?? 1)));
    },
  ],
  ["cd", cd],
  ["pwd", pwd],
  ["pushd", pushd],
  ["popd", popd],
  ["dirs", dirs],
  ...[...DECLARATION_BUILTINS].map(([name, declaration]): [string, Builtin] => [
    name,
    (context, args) => declaration(context, args.map(wordOperand)),
  ]),
  ["unset", unset],
  ["set", setBuiltin],
  [
    "shift",
    (context, args) => {
      const count = numberArg(context, "shift", args[0], 1);
      if (count === null) return 1;
      if (count > context.state.positional.length) return 1;
      context.state.positional = context.state.positional.slice(count);
      return 0;
    },
  ],
  ["read", read],
  [
    "eval",
    async (context, args) => {
      const source = args.join(" ");
      if (source.trim() === "") return 0;
      try {
        return await context.interpreter.runSource(
          source,
          context.fds,
          false,
          context.interpreter.line - 1,
        );
      } catch (signal) {
        if (signal instanceof AssignmentAbort) return signal.status;
        throw signal;
      }
    },
  ],
  ["source", source],
  ["caller", caller],
  ["wait", wait],
  ["hash", hash],
  ["ulimit", ulimit],
  ["kill", kill],
  ["enable", enable],
  ["alias", alias],
  ["unalias", unalias],
  [
    "let",
    (context, args) => {
      let value = 0n;
      for (const arg of args) value = context.interpreter.expander.evaluate(arg);
      return value === 0n ? 1 : 0;
    },
  ],
]);
BUILTINS.set(".", BUILTINS.get("source") as Builtin);
for (const [name, builtin] of MORE_BUILTINS) BUILTINS.set(name, builtin);
setBuiltinNames(() => [...BUILTINS.keys()]);

/** The builtin `name` runs, unless there is none or `enable -n` turned it off. */
export function enabledBuiltin(state: ShellState, name: string): Builtin | undefined {
  return state.disabledBuiltins.has(name) ? undefined : BUILTINS.get(name);
}
