/**
 * The operands of a declaration builtin (`declare`, `typeset`, `local`, `export`,
 * `readonly`) as the parser saw them: a plain word (an option, a name, or a quoted
 * `'a=b'` that the builtin parses as bash does), an assignment word with its parts
 * expanded, or a `name=(…)` list kept as its node, performed by the builtin itself.
 */
import type { AssignmentNode } from "../expand/assignment.js";

export type DeclarationOperand =
  | { readonly kind: "word"; readonly text: string }
  | {
      readonly kind: "assignment";
      readonly name: string;
      /** The expanded subscript of `name[sub]=value`; null without one. */
      readonly index: string | null;
      readonly append: boolean;
      readonly value: string;
    }
  | { readonly kind: "array"; readonly node: AssignmentNode };

export function wordOperand(text: string): DeclarationOperand {
  return { kind: "word", text };
}

/** The operand as one argument string: what `$_`, `set -x` and a function see. */
export function operandText(operand: DeclarationOperand): string {
  switch (operand.kind) {
    case "word":
      return operand.text;
    case "array":
      return operand.node.name;
    case "assignment": {
      const index = operand.index === null ? "" : `[${operand.index}]`;
      return `${operand.name}${index}${operand.append ? "+=" : "="}${operand.value}`;
    }
  }
}
