/** `declare`/`typeset`/`local`/`export`/`readonly`: attributes, assignments and `-p` listings. */
import { encodeShellText } from "@agent-bridle/bash";
import { arrayKeys, ReadonlyError, type Variable } from "../state/state.js";
import { type DeclarationOperand, operandText } from "./declaration-operand.js";
import { type DeclareCommand, declareOne, type Flags } from "./declare-one.js";
import type { BuiltinContext } from "./table.js";

/** bash's `declare -p` value quoting: `"…"` or `$'…'` when control characters appear. */
/** True when `value` holds a control or non-ASCII byte (bash quotes it as `$'…'` under LC_ALL=C). */
export function needsAnsiQuote(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are quoted
  return /[\x00-\x1f\x7f-\uffff]/.test(value);
}

/** `$'…'` with each control or non-ASCII byte escaped (`\n`, `\E`, `\303`). */
export function ansiQuote(value: string): string {
  return `$'${ansiEscape(value)}'`;
}

export function declareQuote(value: string): string {
  if (needsAnsiQuote(value)) return ansiQuote(value);
  return `"${value.replace(/(["\\$`])/g, "\\$1")}"`;
}

const NAMED_BYTES: Readonly<Record<number, string>> = {
  7: "\\a",
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
  27: "\\E",
  39: "\\'",
  92: "\\\\",
};

function ansiEscape(value: string): string {
  let out = "";
  for (const byte of encodeShellText(value)) {
    const named = NAMED_BYTES[byte];
    if (named !== undefined) out += named;
    else if (byte < 32 || byte >= 127) out += `\\${byte.toString(8).padStart(3, "0")}`;
    else out += String.fromCharCode(byte);
  }
  return out;
}

/** `set`/`declare` listing quoting (`name=value`). */
export function setQuote(value: string): string {
  if (value === "") return "''";
  if (needsAnsiQuote(value)) return ansiQuote(value);
  if (/^[A-Za-z0-9_./=:,+@%^-]+$/.test(value)) return value;
  if (value === "'") return "\\'";
  return `'${value.replace(/'/g, "'\\''")}'`;
}

export function attributeFlags(variable: Variable): string {
  let flags = "";
  if (variable.array !== null && !variable.assoc) flags += "a";
  if (variable.assoc) flags += "A";
  if (variable.integer) flags += "i";
  if (variable.lower) flags += "l";
  if (variable.nameref) flags += "n";
  if (variable.readonly) flags += "r";
  if (variable.trace === true) flags += "t";
  if (variable.upper) flags += "u";
  if (variable.exported) flags += "x";
  return flags;
}

/** bash's `sh_contains_shell_metas`: a key with one of these is printed double-quoted. */
function hasShellMetas(key: string): boolean {
  return /[ \t\n'"\\|&;()<>!{}*[?\]^$`]/.test(key) || /^[~#]/.test(key) || /[=:]~/.test(key);
}

/** An associative key as `declare -p` prints it: bare, or `"…"` when it holds metacharacters. */
function keyText(key: string): string {
  return hasShellMetas(key) ? `"${key.replace(/(["\\$`])/g, "\\$1")}"` : key;
}

function arrayText(variable: Variable): string {
  const array = variable.array ?? new Map<string, string>();
  const items = arrayKeys(variable).map(
    (key) => `[${variable.assoc ? keyText(key) : key}]=${declareQuote(array.get(key) ?? "")}`,
  );
  if (variable.assoc) return items.length === 0 ? "()" : `(${items.join(" ")} )`;
  return `(${items.join(" ")})`;
}

/** One `declare -p` line. */
export function declareLine(name: string, variable: Variable): string {
  const flags = attributeFlags(variable);
  const head = `declare -${flags === "" ? "-" : flags} ${name}`;
  if (variable.array !== null) {
    if (variable.declaredOnly && variable.array.size === 0) return head;
    return `${head}=${arrayText(variable)}`;
  }
  if (variable.declaredOnly || variable.value === null) return head;
  return `${head}=${declareQuote(variable.value)}`;
}

/** One `set`-style line (`declare` without arguments). */
export function setLine(name: string, variable: Variable): string | null {
  if (variable.declaredOnly) return null;
  if (variable.array !== null) return `${name}=${arrayText(variable)}`;
  if (variable.value === null) return null;
  return `${name}=${setQuote(variable.value)}`;
}

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
