/** Everything that starts with `$` except `$'…'` and `$"…"`: parameters and substitutions. */

import { scanArithmeticToBracket, tryDoubleParen } from "./arithmetic-text.js";
import type { WordPart } from "./ast-word.js";
import { isDigit, isNameChar, isNameStart, isSpecialParameter } from "./characters.js";
import { scanBracedParameter } from "./parameter.js";
import type { ParserState } from "./parser-state.js";
import { unmatched } from "./syntax-failure.js";

function simpleParameter(state: ParserState, start: number, parameter: string): WordPart {
  state.pos = start + 1 + parameter.length;
  return {
    type: "ParameterExpansion",
    braced: false,
    parameter,
    index: null,
    length: false,
    indirect: false,
    names: null,
    operation: null,
    start,
    end: state.pos,
  };
}

function commandSubstitution(state: ParserState, start: number): WordPart {
  state.pos = start + 2;
  state.enter();
  const script = state.parseNested(state);
  state.leave();
  return { type: "CommandSubstitution", backquote: false, script, start, end: state.pos };
}

/** The part starting at the `$` at `state.pos`, or null when this `$` is literal. */
export function scanDollar(state: ParserState, inDouble: boolean): WordPart | null {
  const start = state.pos;
  const next = state.char(start + 1);
  if (next === "(") {
    if (state.char(start + 2) === "(") {
      state.pos = start + 1;
      state.enter();
      const expression = tryDoubleParen(state);
      state.leave();
      if (expression !== null) {
        return { type: "ArithmeticExpansion", legacy: false, expression, start, end: state.pos };
      }
    }
    return commandSubstitution(state, start);
  }
  if (next === "[") {
    state.pos = start + 2;
    state.enter();
    const expression = scanArithmeticToBracket(state);
    state.leave();
    if (state.char() !== "]") throw unmatched("]", start);
    state.pos += 1;
    return { type: "ArithmeticExpansion", legacy: true, expression, start, end: state.pos };
  }
  if (next === "{") return scanBracedParameter(state, inDouble);
  if (isNameStart(next)) {
    let end = start + 2;
    while (isNameChar(state.char(end))) end += 1;
    return simpleParameter(state, start, state.source.slice(start + 1, end));
  }
  if (next !== undefined && (isDigit(next) || isSpecialParameter(next))) {
    return simpleParameter(state, start, next);
  }
  return null;
}
