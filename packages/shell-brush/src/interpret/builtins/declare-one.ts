/**
 * One operand of a declaration builtin: its name found or declared (local or global), the
 * attribute flags applied, then its value assigned — a typed assignment word or list as
 * the parser saw it, or a plain word parsed as bash parses `declare 'a[1]=x'`.
 */
import { parseBash } from "@agent-bridle/bash";
import { type AssignmentNode, assignValue } from "../expand/assignment.js";
import { ReadonlyError, type Variable } from "../state/state.js";
import type { BuiltinContext } from "./builtin-context.js";
import type { DeclarationOperand } from "./declaration-operand.js";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type DeclareCommand = "declare" | "local" | "export" | "readonly";

export interface Flags {
  readonly on: ReadonlySet<string>;
  readonly off: ReadonlySet<string>;
}

/** An operand taken apart: its name, `[sub]` as written, and what it assigns. */
interface Parts {
  readonly text: string;
  readonly name: string;
  readonly element: string | undefined;
  readonly assign: { readonly append: boolean; readonly value: string } | null;
  /** A `name=(…)` list, performed as an assignment statement would. */
  readonly list: AssignmentNode | null;
  readonly bareElement: boolean;
}

function partsOf(operand: DeclarationOperand): Parts {
  if (operand.kind === "array") {
    const name = operand.node.name;
    return {
      text: name,
      name,
      element: undefined,
      assign: null,
      list: operand.node,
      bareElement: false,
    };
  }
  if (operand.kind === "assignment") {
    const element = operand.index === null ? undefined : `[${operand.index}]`;
    const assign = { append: operand.append, value: operand.value };
    const text = `${operand.name}${element ?? ""}${operand.append ? "+=" : "="}${operand.value}`;
    return { text, name: operand.name, element, assign, list: null, bareElement: false };
  }
  const text = operand.text;
  const match = /^([^=[+]*)(\[[^\]]*\])?(\+?=)(.*)$/s.exec(text);
  if (match !== null) {
    const assign = { append: match[3] === "+=", value: match[4] ?? "" };
    return {
      text,
      name: match[1] ?? "",
      element: match[2],
      assign,
      list: null,
      bareElement: false,
    };
  }
  // `declare 'arr[5]'` (no value) declares an array.
  const bare = /^([A-Za-z_][A-Za-z0-9_]*)\[.+\]$/s.exec(text);
  const name = bare?.[1] ?? text;
  return { text, name, element: undefined, assign: null, list: null, bareElement: bare !== null };
}

/** `flags` with `letter` turned on (`true`) or no longer turned on (`false`). */
function withFlag(flags: Flags, letter: string, on: boolean): Flags {
  const set = new Set(flags.on);
  if (on) set.add(letter);
  else set.delete(letter);
  return { ...flags, on: set };
}

/** Declare one operand; false (reported) when it is refused. */
export async function declareOne(
  command: DeclareCommand,
  context: BuiltinContext,
  operand: DeclarationOperand,
  declared: Flags,
  local: boolean,
): Promise<boolean> {
  const parts = partsOf(operand);
  let flags = declared;
  if (parts.bareElement && !flags.on.has("A")) flags = withFlag(flags, "a", true);
  const name = parts.name;
  if (!NAME.test(name)) {
    context.error(`${command}: \`${parts.text}': not a valid identifier`);
    return false;
  }
  // `export` takes no array element (`export 'a[0]=1'`).
  if (command === "export" && parts.assign !== null && parts.element !== undefined) {
    context.error(`export: \`${name}${parts.element}': not a valid identifier`);
    return false;
  }
  // With -a or -A, -n is ignored (bash makes the array).
  if (flags.on.has("n") && (flags.on.has("a") || flags.on.has("A")))
    flags = withFlag(flags, "n", false);
  const nameref = flags.on.has("n") || flags.off.has("n");
  if (flags.on.has("n") && !namerefTargetValid(command, context, name, parts)) return false;
  const variable = declaredVariable(command, context, name, nameref, local);
  if (variable === null) return true;
  if (variable.readonly && (parts.assign !== null || parts.list !== null || flags.off.has("r")))
    throw new ReadonlyError(name);
  if (!applyAttributes(command, context, name, variable, flags)) return false;
  await assignOperand(context, name, variable, parts, nameref);
  if (flags.on.has("r")) variable.readonly = true;
  // bash refuses to remove readonly: `+r` leaves it.
  return true;
}

/** `declare -n ref=target`: the target must be a name (or an element) other than `ref`. */
function namerefTargetValid(
  command: DeclareCommand,
  context: BuiltinContext,
  name: string,
  parts: Parts,
): boolean {
  if (parts.assign === null || parts.element !== undefined) return true;
  const target = parts.assign.value;
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
  return true;
}

/** The variable the operand declares; null when bash names it as no identifier and goes on. */
function declaredVariable(
  command: DeclareCommand,
  context: BuiltinContext,
  name: string,
  nameref: boolean,
  local: boolean,
): Variable | null {
  const state = context.state;
  if (local) {
    // A readonly global cannot be shadowed by a local (bash: "local copies of readonly
    // global variables" are refused); a calling function's readonly local can.
    const visible = state.lookupRaw(name);
    if (visible?.readonly && visible === state.scopes[0]?.get(name) && state.scopes.length > 1)
      throw new ReadonlyError(name);
    return state.declareLocal(name);
  }
  const existing = nameref ? state.lookupRaw(name) : state.lookup(name);
  // Through a nameref to an element, `declare` gives the attributes to the array itself;
  // `export` and `readonly` name the element as no identifier and go on, status 0 (bash).
  const full = nameref ? name : state.resolveName(name);
  if (full.includes("[") && (command === "export" || command === "readonly")) {
    context.error(`${command}: \`${full}': not a valid identifier`);
    return null;
  }
  const resolved = full.replace(/\[.*$/s, "");
  return existing ?? state.lookup(resolved) ?? state.declareGlobal(resolved);
}

/** The `-x -i -l -u -n -t -a -A` attributes (`+` turns them off); false when refused. */
function applyAttributes(
  command: DeclareCommand,
  context: BuiltinContext,
  name: string,
  variable: Variable,
  flags: Flags,
): boolean {
  const { on, off } = flags;
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
  return true;
}

/** Assign what the operand carries: a list, a `'arr=(…)'` word, a scalar or an element. */
async function assignOperand(
  context: BuiltinContext,
  name: string,
  variable: Variable,
  parts: Parts,
  nameref: boolean,
): Promise<void> {
  const state = context.state;
  const interpreter = context.interpreter;
  if (parts.list !== null) {
    await assignValue(interpreter, parts.list, () => undefined);
    return;
  }
  const assign = parts.assign;
  if (assign === null) return;
  const index = parts.element;
  const op = assign.append ? "+=" : "=";
  if (index === undefined && variable.array !== null && /^\(.*\)$/s.test(assign.value)) {
    // `declare -a 'arr=(…)'`: the compound value is parsed and expanded again.
    await interpreter.runSource(`${name}${op}${assign.value}`, context.fds);
    return;
  }
  let value = assign.value;
  if (variable.integer) {
    const old = assign.append ? (index === undefined ? (variable.value ?? "0") : "0") : null;
    value = String(interpreter.expander.evaluate(old === null ? value : `${old || 0}+(${value})`));
  } else if (assign.append && index === undefined) value = (variable.value ?? "") + value;
  if (nameref) {
    variable.value = value;
    variable.declaredOnly = false;
  } else if (index !== undefined) {
    const key = await expandSubscript(context, index.slice(1, -1));
    const element = variable.assoc ? key : String(interpreter.expander.evaluate(key));
    const old =
      assign.append && !variable.integer ? (state.lookup(name)?.array?.get(element) ?? "") : "";
    state.setElement(name, element, old + value);
  } else {
    const target = state.lookup(name) ?? variable;
    target.declaredOnly = false;
    const cased = target.lower ? value.toLowerCase() : target.upper ? value.toUpperCase() : value;
    if (target.array !== null) target.array.set("0", cased);
    else target.value = cased;
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
