/** Assignments: scalars, `+=`, array elements, `name=(…)` literals, integer attributes. */
import type { SimpleCommand } from "@agent-bridle/bash";
import type { ExecContext } from "../exec-context.js";
import { ExpansionError } from "../signals.js";
import { arrayKeys } from "../state/state.js";

/** One `name=value` / `name[i]=value` / `name=(…)` of a command or declaration. */
export type AssignmentNode = SimpleCommand["assignments"][number];

/** What a scalar assignment stores: `raw` (expanded), appended to `old` for `+=`; `-i` evaluates. */
export function scalarValue(
  interpreter: ExecContext,
  assignment: AssignmentNode,
  integer: boolean,
  raw: string,
  old: string | undefined,
): string {
  if (integer)
    return String(interpreter.expander.evaluate(assignment.append ? `${old || 0}+(${raw})` : raw));
  return assignment.append ? (old ?? "") + raw : raw;
}

export async function assignValue(
  interpreter: ExecContext,
  assignment: AssignmentNode,
  apply: (name: string, value: string) => void,
): Promise<void> {
  const name = assignment.name;
  const value = assignment.value;
  if (value !== null && value.type === "ArrayLiteral") {
    // A nameref to an element cannot take a list (bash names the element).
    const resolved = interpreter.state.resolveName(name);
    if (resolved.includes("["))
      throw new ExpansionError(`\`${resolved}': not a valid identifier`, "line");
    const variable = interpreter.state.lookup(name);
    const assoc = variable?.assoc ?? false;
    const integer = variable?.integer ?? false;
    const map =
      assignment.append && variable?.array
        ? new Map(variable.array)
        : assignment.append && variable?.value != null && !variable.declaredOnly
          ? new Map([["0", variable.value]])
          : new Map<string, string>();
    const convert = (text: string): string =>
      integer ? String(interpreter.expander.evaluate(text)) : text;
    const convertAppend = (old: string, text: string): string =>
      integer ? String(interpreter.expander.evaluate(`${old || 0}+(${text})`)) : old + text;
    let next = 0;
    for (const key of map.keys()) next = Math.max(next, Number(key) + 1);
    for (const element of value.elements) {
      if (element.index !== null) {
        const key = assoc
          ? await interpreter.expander.string(element.index)
          : String(interpreter.expander.evaluate(await interpreter.expander.string(element.index)));
        const text = await interpreter.expander.string(element.value);
        map.set(key, element.append ? convertAppend(map.get(key) ?? "", text) : convert(text));
        next = Number(key) + 1;
      } else {
        for (const field of await interpreter.expander.fields(element.value)) {
          map.set(String(next), convert(field));
          next += 1;
        }
      }
    }
    interpreter.state.setArray(name, map, assoc);
    return;
  }
  const raw = value === null ? "" : await interpreter.expander.assignment(value);
  const existing = interpreter.state.lookup(name);
  const integer = existing?.integer ?? false;
  const combine = (old: string | undefined): string =>
    scalarValue(interpreter, assignment, integer, raw, old);
  if (assignment.index !== null) {
    const rawIndex = await interpreter.expander.string(assignment.index);
    let key = existing?.assoc ? rawIndex : String(interpreter.expander.evaluate(rawIndex));
    if (!existing?.assoc && key.startsWith("-")) {
      const keys = existing === undefined ? [] : arrayKeys(existing);
      const resolved = Number(keys[keys.length - 1] ?? -1) + 1 + Number(key);
      if (resolved < 0) throw new ExpansionError(`${name}[${key}]: bad array subscript`, "command");
      key = String(resolved);
    }
    const old =
      existing?.array === null || existing === undefined
        ? key === "0"
          ? (existing?.value ?? undefined)
          : undefined
        : existing.array.get(key);
    interpreter.state.setElement(name, key, combine(old));
    return;
  }
  apply(name, combine(interpreter.state.get(name)));
}
