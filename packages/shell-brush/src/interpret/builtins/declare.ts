/** `declare`/`typeset`/`local`/`export`/`readonly`: attributes, assignments and `-p` listings. */
import { ReadonlyError } from "../state/state.js";
import { attributeFlags, declareLine, setLine } from "../state/variable-text.js";
import type { BuiltinContext } from "./builtin-context.js";
import { type DeclarationOperand, operandText } from "./declaration-operand.js";
import { type DeclareCommand, declareOne, type Flags } from "./declare-one.js";

/** Run one of the declaration builtins over its typed operands. */
export async function declareBuiltin(
  command: DeclareCommand,
  context: BuiltinContext,
  args: readonly DeclarationOperand[],
): Promise<number> {
  const on = new Set<string>();
  const off = new Set<string>();
  if (command === "export") on.add("x");
  if (command === "readonly") on.add("r");
  const operands: DeclarationOperand[] = [];
  for (const arg of args) {
    const option = operands.length === 0 && arg.kind === "word" ? arg.text : null;
    if (option === "--") continue;
    if (option !== null && /^[-+][a-zA-Z]+$/.test(option)) {
      for (const letter of option.slice(1)) (option.startsWith("-") ? on : off).add(letter);
      continue;
    }
    operands.push(arg);
  }
  const flags: Flags = { on, off };
  const names = operands.map(operandText);
  const state = context.state;
  if (command === "export" && on.has("n")) {
    for (const name of names) {
      const variable = state.lookup(name);
      if (variable !== undefined) variable.exported = false;
    }
    return 0;
  }
  if (on.has("f") || on.has("F")) return declareFunctions(command, context, flags, names);
  const print = on.has("p");
  if (operands.length === 0) {
    if (command === "local" && !print && on.size === 0) return 0;
    listAll(command, context, flags, print);
    return 0;
  }
  if (print) return printNamed(command, context, names);
  const local =
    command === "local" || (command === "declare" && state.funcNames.length > 0 && !on.has("g"));
  let status = 0;
  for (const operand of operands) {
    try {
      if (!(await declareOne(command, context, operand, flags, local))) status = 1;
    } catch (error) {
      if (!(error instanceof ReadonlyError)) throw error;
      // bash names the builtin for `declare`/`local`, not for `export`/`readonly`.
      const refused = command === "export" || command === "readonly";
      context.error(refused ? error.message : `${command}: ${error.message}`);
      status = 1;
    }
  }
  return status;
}

/** `declare -f`/`-F`: function bodies or names. */
function declareFunctions(
  command: DeclareCommand,
  context: BuiltinContext,
  flags: Flags,
  operands: readonly string[],
): number {
  const state = context.state;
  let status = 0;
  const names = operands.length === 0 ? [...state.functions.keys()].sort() : operands;
  for (const name of names) {
    const fn = state.functions.get(name);
    if (fn === undefined) {
      if (command === "export") context.error(`export: ${name}: not a function`);
      status = 1;
      continue;
    }
    if (!flags.on.has("F")) context.stdout.write(`${context.interpreter.functionText(fn)}\n`);
    else if (operands.length === 0 || flags.on.has("p"))
      context.stdout.write(`declare -f ${name}\n`);
    else context.stdout.write(`${name}\n`);
  }
  return status;
}

/** `declare -p name…`. */
function printNamed(
  command: DeclareCommand,
  context: BuiltinContext,
  names: readonly string[],
): number {
  let status = 0;
  for (const name of names) {
    const variable = context.state.lookupRaw(name);
    if (variable === undefined) {
      context.error(`${command}: ${name}: not found`);
      status = 1;
    } else context.stdout.write(`${declareLine(name, variable)}\n`);
  }
  return status;
}

function listAll(
  command: DeclareCommand,
  context: BuiltinContext,
  flags: Flags,
  print: boolean,
): void {
  const state = context.state;
  for (const name of state.names()) {
    const variable = state.lookupRaw(name);
    if (variable === undefined) continue;
    if (command === "export" && !variable.exported) continue;
    if (command === "readonly" && !variable.readonly) continue;
    // Several attributes list the variables that have any of them (bash).
    const wanted = [...flags.on].filter((letter) => letter !== "p");
    const attributes = attributeFlags(variable);
    if (wanted.length > 0 && !wanted.some((letter) => attributes.includes(letter))) continue;
    if (command === "declare" && !print && flags.on.size === 0) {
      const line = setLine(name, variable);
      if (line !== null) context.stdout.write(`${line}\n`);
    } else context.stdout.write(`${declareLine(name, variable)}\n`);
  }
}
