/** Everything that starts with `$` except `$'…'` and `$"…"`: parameters and substitutions. */

import { scanArithmeticToBracket, tryDoubleParen } from "./arithmetic-text.js";
import type { WordPart } from "./ast-word.js";
import { isDigit, isNameChar, isNameStart, isSpecialParameter } from "./characters.js";
import { scanBracedParameter } from "./parameter.js";
import { type ParserState, skipContinuations } from "./parser-state.js";
import { unmatched } from "./syntax-failure.js";

function simpleParameter(
  state: ParserState,
  start: number,
  parameter: string,
  end: number,
): WordPart {
  state.pos = end;
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

function commandSubstitution(state: ParserState, start: number, open: number): WordPart {
  state.pos = open + 1;
  state.enter();
  const script = state.parseNested(state);
  state.leave();
  return { type: "CommandSubstitution", backquote: false, script, start, end: state.pos };
}

/** The part starting at the `$` at `state.pos`, or null when this `$` is literal. */
export function scanDollar(state: ParserState, inDouble: boolean): WordPart | null {
  const start = state.pos;
  // bash removes line continuations before it reads: `$\<newline>(id)` is `$(id)`.
  const open = skipContinuations(state, start + 1);
  const next = state.char(open);
  if (next === "(") {
    if (state.char(open + 1) === "(") {
      state.pos = open;
      state.enter();
      const expression = tryDoubleParen(state);
      state.leave();
      if (expression !== null) {
        return { type: "ArithmeticExpansion", legacy: false, expression, start, end: state.pos };
      }
    }
    return commandSubstitution(state, start, open);
  }
  if (next === "[") {
    state.pos = open + 1;
    state.enter();
    const expression = scanArithmeticToBracket(state);
    state.leave();
    if (state.char() !== "]") throw unmatched("]", start);
    state.pos += 1;
    return { type: "ArithmeticExpansion", legacy: true, expression, start, end: state.pos };
  }
  if (next === "{" && open === start + 1) return scanBracedParameter(state, inDouble);
  if (isNameStart(next)) {
    // A name runs on across line continuations: `$HO\<newline>ME` is `$HOME`.
    let name = next as string;
    let end = open + 1;
    for (;;) {
      const at = skipContinuations(state, end);
      if (!isNameChar(state.char(at))) break;
      name += state.char(at);
      end = at + 1;
    }
    return simpleParameter(state, start, name, end);
  }
  if (next !== undefined && (isDigit(next) || isSpecialParameter(next))) {
    return simpleParameter(state, start, next, open + 1);
  }
  return null;
}
