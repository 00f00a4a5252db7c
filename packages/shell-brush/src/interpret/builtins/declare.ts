/** `declare`/`typeset`/`local`/`export`/`readonly`: attributes, assignments and `-p` listings. */
import { encodeShellText, parseBash } from "@agent-bridle/bash";
import { arrayKeys, ReadonlyError, type Variable } from "../state/state.js";
import type { BuiltinContext } from "./table.js";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

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

export type DeclareCommand = "declare" | "local" | "export" | "readonly";

interface Flags {
  on: Set<string>;
  off: Set<string>;
}

/** Run one of the declaration builtins; `context.assignArray(n)` performs `name=(…)` operands. */
export async function declareBuiltin(
  command: DeclareCommand,
  context: BuiltinContext,
  args: readonly string[],
): Promise<number> {
  const flags: Flags = { on: new Set(), off: new Set() };
  if (command === "export") flags.on.add("x");
  if (command === "readonly") flags.on.add("r");
  const operands: string[] = [];
  for (const arg of args) {
    if (operands.length === 0 && arg === "--") continue;
    if (operands.length === 0 && /^[-+][a-zA-Z]+$/.test(arg)) {
      for (const letter of arg.slice(1)) (arg.startsWith("-") ? flags.on : flags.off).add(letter);
      continue;
    }
    operands.push(arg);
  }
  const state = context.state;
  if (command === "export" && flags.on.has("n")) {
    for (const name of operands) {
      const variable = state.lookup(name);
      if (variable !== undefined) variable.exported = false;
    }
    return 0;
  }
  const functions = flags.on.has("f") || flags.on.has("F");
  if (functions) {
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
  const print = flags.on.has("p");
  if (operands.length === 0) {
    if (command === "local" && !print && flags.on.size === 0) return 0;
    listAll(command, context, flags, print);
    return 0;
  }
  if (print) {
    let status = 0;
    for (const name of operands) {
      const variable = state.lookupRaw(name);
      if (variable === undefined) {
        context.error(`${command}: ${name}: not found`);
        status = 1;
      } else context.stdout.write(`${declareLine(name, variable)}\n`);
    }
    return status;
  }
  const local =
    command === "local" ||
    (command === "declare" && state.funcNames.length > 0 && !flags.on.has("g"));
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

/**
 * The subscript of an operand's `name[sub]=value`, expanded as bash expands it there
 * (parameters, command substitutions, quotes; no splitting); as written when it is no
 * single word.
 */
async function expandSubscript(context: BuiltinContext, text: string): Promise<string> {
  if (!/[$`'"\\]/.test(text)) return text;
  const parsed = parseBash(`_=${text}`);
  const statement = parsed.ok ? parsed.script.body.statements : [];
  const command = statement[0]?.andOr.pipelines[0]?.commands[0];
  if (statement.length !== 1 || command?.type !== "SimpleCommand" || command.words.length > 0)
    return text;
  const value = command.assignments[0]?.value;
  if (command.assignments.length !== 1 || value?.type !== "Word") return text;
  return context.interpreter.expander.assignment(value);
}

async function declareOne(
  command: DeclareCommand,
  context: BuiltinContext,
  operand: string,
  declared: Flags,
  local: boolean,
): Promise<boolean> {
  let flags = declared;
  const state = context.state;
  const arrayMarker = operand.startsWith("\u0000array:")
    ? /^array:([0-9]+):(.*)$/s.exec(operand.slice(1))
    : null;
  const match = /^([^=[+]*)(\[[^\]]*\])?(\+?=)(.*)$/s.exec(operand);
  // `declare 'arr[5]'` (no value) declares an array.
  const bareElement = match === null ? /^([A-Za-z_][A-Za-z0-9_]*)\[.+\]$/s.exec(operand) : null;
  if (bareElement !== null && !flags.on.has("A"))
    flags = { ...flags, on: new Set([...flags.on, "a"]) };
  const name = arrayMarker?.[2] ?? match?.[1] ?? bareElement?.[1] ?? operand;
  if (!NAME.test(name)) {
    context.error(`${command}: \`${operand}': not a valid identifier`);
    return false;
  }
  // `export` takes no array element (`export 'a[0]=1'`).
  if (command === "export" && match?.[2] !== undefined) {
    context.error(`export: \`${name}${match[2]}': not a valid identifier`);
    return false;
  }
  let variable: Variable;
  // With -a or -A, -n is ignored (bash makes the array).
  if (flags.on.has("n") && (flags.on.has("a") || flags.on.has("A")))
    flags = { ...flags, on: new Set([...flags.on].filter((letter) => letter !== "n")) };
  const nameref = flags.on.has("n") || flags.off.has("n");
  if (flags.on.has("n") && match !== null && match[2] === undefined) {
    const target = match[4] ?? "";
    if (target === "") {
      context.error(`${command}: \`': not a valid identifier`);
      return false;
    }
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?$/s.test(target)) {
      context.error(`${command}: \`${target}': invalid variable name for name reference`);
      return false;
    }
    if (target === name) {
      context.error(`${command}: ${name}: nameref variable self references not allowed`);
      return false;
    }
  }
  if (local) {
    // A readonly global cannot be shadowed by a local (bash: "local copies of readonly
    // global variables" are refused); a calling function's readonly local can.
    const visible = state.lookupRaw(name);
    if (visible?.readonly && visible === state.scopes[0]?.get(name) && state.scopes.length > 1)
      throw new ReadonlyError(name);
    variable = state.declareLocal(name);
  } else {
    const existing = nameref ? state.lookupRaw(name) : state.lookup(name);
    // Through a nameref to an element, `declare` gives the attributes to the array itself;
    // `export` and `readonly` name the element as no identifier and go on, status 0 (bash).
    const full = nameref ? name : state.resolveName(name);
    if (full.includes("[") && (command === "export" || command === "readonly")) {
      context.error(`${command}: \`${full}': not a valid identifier`);
      return true;
    }
    const resolved = full.replace(/\[.*$/s, "");
    variable = existing ?? state.lookup(resolved) ?? state.declareGlobal(resolved);
  }
  const on = flags.on;
  const off = flags.off;
  if (variable.readonly && (match !== null || arrayMarker !== null || flags.off.has("r")))
    throw new ReadonlyError(name);
  const indexed = variable.array !== null && !variable.assoc;
  if ((off.has("a") && indexed) || (off.has("A") && variable.assoc)) {
    context.error(`${command}: ${name}: cannot destroy array variables in this way`);
    return false;
  }
  if (on.has("x")) variable.exported = true;
  if (off.has("x")) variable.exported = false;
  if (on.has("i")) variable.integer = true;
  if (off.has("i")) variable.integer = false;
  if (on.has("l")) {
    variable.lower = true;
    variable.upper = false;
  }
  if (on.has("u")) {
    variable.upper = true;
    variable.lower = false;
  }
  if (off.has("l")) variable.lower = false;
  if (off.has("u")) variable.upper = false;
  if (on.has("n")) variable.nameref = true;
  if (off.has("n")) variable.nameref = false;
  if (on.has("A") && variable.array !== null && !variable.assoc) {
    context.error(`${command}: ${name}: cannot convert indexed to associative array`);
    return false;
  }
  if (on.has("a") && variable.assoc) {
    context.error(`${command}: ${name}: cannot convert associative to indexed array`);
    return false;
  }
  if (on.has("A") && !variable.assoc) {
    variable.assoc = true;
    // A scalar becomes element "0" (bash).
    variable.array = new Map(
      variable.value !== null && !variable.declaredOnly ? [["0", variable.value]] : [],
    );
    variable.value = null;
  }
  if (on.has("t")) variable.trace = true;
  if (off.has("t")) variable.trace = false;
  if (on.has("a") && variable.array === null) {
    variable.array = new Map();
    if (variable.value !== null && !variable.declaredOnly) variable.array.set("0", variable.value);
    variable.value = null;
  }
  if (arrayMarker !== null) {
    await context.assignArray(Number(arrayMarker[1]));
  } else if (
    match !== null &&
    match[2] === undefined &&
    variable.array !== null &&
    /^\(.*\)$/s.test(match[4] ?? "")
  ) {
    // `declare -a 'arr=(…)'`: the compound value is parsed and expanded again.
    await context.interpreter.runSource(`${name}${match[3]}${match[4]}`, context.fds);
  } else if (match !== null) {
    let value = match[4] ?? "";
    const append = match[3] === "+=";
    const index = match[2];
    if (variable.integer) {
      const old = append ? (index === undefined ? (variable.value ?? "0") : "0") : null;
      value = String(
        context.interpreter.expander.evaluate(old === null ? value : `${old || 0}+(${value})`),
      );
    } else if (append && index === undefined) value = (variable.value ?? "") + value;
    if (nameref) {
      variable.value = value;
      variable.declaredOnly = false;
    } else if (index !== undefined) {
      const key = await expandSubscript(context, index.slice(1, -1));
      const element = variable.assoc ? key : String(context.interpreter.expander.evaluate(key));
      const old =
        append && !variable.integer ? (state.lookup(name)?.array?.get(element) ?? "") : "";
      state.setElement(name, element, old + value);
    } else {
      const target = state.lookup(name) ?? variable;
      target.declaredOnly = false;
      const cased = target.lower ? value.toLowerCase() : target.upper ? value.toUpperCase() : value;
      if (target.array !== null) target.array.set("0", cased);
      else target.value = cased;
    }
  }
  if (on.has("r")) variable.readonly = true;
  if (off.has("r") && variable.readonly) {
    // bash refuses to remove readonly
  }
  return true;
}
