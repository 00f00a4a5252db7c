/** `${…}` parameter expansion with every operator (bash reports "bad substitution" at run time, so unknown forms parse). */

import { scanArithmeticTo, scanArithmeticToBracket } from "./arithmetic-text.js";
import type { ParameterExpansion, ParameterOperation, Word } from "./ast-word.js";
import { isDigit, isNameChar, isNameStart, isSpecialParameter } from "./characters.js";
import type { ParserState } from "./parser-state.js";
import { type ScanConfig, scanParts } from "./scan-parts.js";
import { unmatched } from "./syntax-failure.js";

function operandConfig(inDouble: boolean, stops: string, singleQuotes: boolean): ScanConfig {
  return {
    quotes: singleQuotes ? "all" : "double",
    escapes: "any",
    inDouble,
    nest: { open: "{", close: "}" },
    singleQuoteSpans: inDouble && !singleQuotes,
    stop: (state, depth) => {
      const char = state.char();
      return char !== undefined && depth === 0 && stops.includes(char);
    },
  };
}

function scanOperand(
  state: ParserState,
  inDouble: boolean,
  stops = "}",
  singleQuotes = true,
): Word {
  const start = state.pos;
  const { parts, flags } = scanParts(state, operandConfig(inDouble, stops, singleQuotes));
  return { type: "Word", parts, flags, start, end: state.pos };
}

function readParameterName(state: ParserState): string {
  const start = state.pos;
  const char = state.char();
  if (isNameStart(char)) {
    while (isNameChar(state.char())) state.pos += 1;
  } else if (isDigit(char)) {
    while (isDigit(state.char())) state.pos += 1;
  } else if (isSpecialParameter(char)) {
    state.pos += 1;
  }
  return state.source.slice(start, state.pos);
}

function startsParameter(char: string | undefined): boolean {
  return isNameStart(char) || isDigit(char) || isSpecialParameter(char);
}

function take(state: ParserState, text: string): boolean {
  if (!state.startsWith(text)) return false;
  state.pos += text.length;
  return true;
}

function scanSubstring(state: ParserState): ParameterOperation {
  const offset = scanArithmeticTo(state, ":}");
  const length = take(state, ":") ? scanArithmeticTo(state, "}") : null;
  return { kind: "substring", offset, length };
}

function scanReplace(state: ParserState, inDouble: boolean): ParameterOperation {
  const mode = take(state, "/")
    ? "all"
    : take(state, "#")
      ? "prefix"
      : take(state, "%")
        ? "suffix"
        : "first";
  const pattern = scanOperand(state, inDouble, "/}");
  const replacement = take(state, "/") ? scanOperand(state, inDouble) : null;
  return { kind: "replace", mode, pattern, replacement };
}

function scanCase(state: ParserState, inDouble: boolean): ParameterOperation {
  const char = state.char() as "^" | ",";
  const doubled = state.char(state.pos + 1) === char;
  state.pos += doubled ? 2 : 1;
  const operator = doubled ? (char === "^" ? "^^" : ",,") : char;
  const pattern = scanOperand(state, inDouble);
  return { kind: "case", operator, pattern: pattern.start === pattern.end ? null : pattern };
}

function scanOperation(state: ParserState, inDouble: boolean): ParameterOperation | null {
  const char = state.char();
  const next = state.char(state.pos + 1);
  if (char === "}") return null;
  if (char === ":" && next !== undefined && "-=?+".includes(next)) {
    state.pos += 2;
    const operator = next as "-" | "=" | "?" | "+";
    return {
      kind: "default",
      operator,
      colon: true,
      word: scanOperand(state, inDouble, "}", !inDouble),
    };
  }
  if (char !== undefined && "-=?+".includes(char)) {
    state.pos += 1;
    const operator = char as "-" | "=" | "?" | "+";
    return {
      kind: "default",
      operator,
      colon: false,
      word: scanOperand(state, inDouble, "}", !inDouble),
    };
  }
  if (char === ":") {
    state.pos += 1;
    return scanSubstring(state);
  }
  if (char === "#" || char === "%") {
    const longest = next === char;
    state.pos += longest ? 2 : 1;
    const kind = char === "#" ? "removePrefix" : "removeSuffix";
    return { kind, longest, pattern: scanOperand(state, inDouble) };
  }
  if (char === "/") {
    state.pos += 1;
    return scanReplace(state, inDouble);
  }
  if (char === "^" || char === ",") return scanCase(state, inDouble);
  if (char === "@" && next !== undefined && next !== "}") {
    state.pos += 2;
    return { kind: "transform", operator: next };
  }
  return scanInvalid(state, inDouble);
}

/** Anything else up to the closing brace: bash reports "bad substitution" when it runs. */
function scanInvalid(state: ParserState, inDouble: boolean): ParameterOperation {
  const start = state.pos;
  scanOperand(state, inDouble);
  return { kind: "invalid", text: state.source.slice(start, state.pos) };
}

/** `${…}` from the `$` at `state.pos`. */
export function scanBracedParameter(state: ParserState, inDouble: boolean): ParameterExpansion {
  const start = state.pos;
  state.pos += 2;
  state.enter();
  const first = state.char();
  const second = state.char(state.pos + 1);
  const length =
    first === "#" &&
    second !== "}" &&
    startsParameter(second) &&
    !(second === "#" && state.char(state.pos + 2) !== "}");
  const indirect = first === "!" && second !== "}" && startsParameter(second);
  if (length || indirect) state.pos += 1;
  const parameter = readParameterName(state);
  let index: Word | null = null;
  if (state.char() === "[" && isNameStart(parameter[0])) {
    const open = state.pos;
    state.pos += 1;
    const expression = scanArithmeticToBracket(state);
    if (state.char() !== "]") throw unmatched("]", open);
    state.pos += 1;
    index = {
      type: "Word",
      parts: expression.parts,
      flags: NO_FLAGS,
      start: expression.start,
      end: expression.end,
    };
  }
  let names: "*" | "@" | null = null;
  const char = state.char();
  if (
    indirect &&
    index === null &&
    (char === "*" || char === "@") &&
    state.char(state.pos + 1) === "}"
  ) {
    names = char;
    state.pos += 1;
  }
  const operation =
    parameter === "" ? scanInvalid(state, inDouble) : scanOperation(state, inDouble);
  if (state.char() !== "}") throw unmatched("}", start);
  state.pos += 1;
  state.leave();
  return {
    type: "ParameterExpansion",
    braced: true,
    parameter,
    index,
    length,
    indirect,
    names,
    operation,
    start,
    end: state.pos,
  };
}

const NO_FLAGS = { glob: false, brace: false, tilde: false, quoted: false } as const;
