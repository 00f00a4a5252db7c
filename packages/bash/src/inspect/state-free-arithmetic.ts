/**
 * Arithmetic the inventory may show as text only when its value cannot depend on the
 * shell's state (reference §7.2): integer literals (`42`, `0x2a`, `16#ff`) and unary,
 * binary and ternary operators. A variable, an array reference, an assignment or an
 * increment depends on run-time state; nested command syntax is not statically evaluable.
 */

import type { WordPart } from "../parse/ast-word.js";
import { ArithmeticError, evaluateArithmetic } from "../words/arithmetic.js";

export const RUNTIME_STATE = "depends on runtime shell state";
export const NOT_STATIC = "is not statically evaluable";

const NUMBER = /^(?:[0-9]+#[0-9A-Za-z@_]+|0[xX][0-9A-Fa-f]+|[0-9]+)/;
const NAME = /^[A-Za-z_]/;
const ASSIGNING = ["<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "++", "--"];
const OPERATORS = ["**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||"];
const SINGLE = "+-*/%<>&|^!~?:(),";

/** The arithmetic's text, or null when a part makes it dynamic (`reason` says why). */
function textOf(parts: readonly WordPart[]): { text: string } | { reason: string } {
  let text = "";
  for (const part of parts) {
    switch (part.type) {
      case "Literal":
      case "Escaped":
        text += part.value;
        break;
      case "DoubleQuoted": {
        const inner = textOf(part.parts);
        if ("reason" in inner) return inner;
        text += inner.text;
        break;
      }
      case "ParameterExpansion":
        return { reason: RUNTIME_STATE };
      default:
        return { reason: NOT_STATIC };
    }
  }
  return { text };
}

function tokensReason(text: string): string | null {
  let rest = text;
  while (rest.length > 0) {
    const space = /^\s+/.exec(rest);
    if (space) {
      rest = rest.slice(space[0].length);
      continue;
    }
    const number = NUMBER.exec(rest);
    if (number) {
      rest = rest.slice(number[0].length);
      if (NAME.test(rest)) return NOT_STATIC;
      continue;
    }
    if (NAME.test(rest) || rest.startsWith("[")) return RUNTIME_STATE;
    if (ASSIGNING.some((operator) => rest.startsWith(operator))) return RUNTIME_STATE;
    const operator = OPERATORS.find((candidate) => rest.startsWith(candidate));
    if (operator) {
      rest = rest.slice(operator.length);
      continue;
    }
    if (rest.startsWith("=")) return RUNTIME_STATE;
    if (SINGLE.includes(rest[0] as string)) {
      rest = rest.slice(1);
      continue;
    }
    return NOT_STATIC;
  }
  return null;
}

const NO_STATE = {
  get(): string | undefined {
    throw new ArithmeticError("no shell state", "");
  },
  set(): void {
    throw new ArithmeticError("no shell state", "");
  },
};

/** Null when the arithmetic is state-free and well formed, else why it is not. */
export function statefulArithmetic(parts: readonly WordPart[]): string | null {
  const text = textOf(parts);
  if ("reason" in text) return text.reason;
  const reason = tokensReason(text.text);
  if (reason !== null) return reason;
  try {
    evaluateArithmetic(text.text, NO_STATE);
  } catch (error) {
    if (error instanceof ArithmeticError) return NOT_STATIC;
    throw error;
  }
  return null;
}
