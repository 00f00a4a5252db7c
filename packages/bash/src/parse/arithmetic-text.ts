/**
 * Arithmetic text (`$((…))`, `((…))`, `$[…]`, subscripts, substring offsets): scanned
 * as word parts so that `$x`, `${…}` and `$(…)` inside nest as sub-trees. The operator
 * grammar is left to evaluation, as bash expands the text before parsing it.
 */
import type { Arithmetic } from "./ast-word.js";
import type { ParserState } from "./parser-state.js";
import { type ScanConfig, scanParts } from "./scan-parts.js";
import { SyntaxFailure } from "./syntax-failure.js";

function config(
  nest: { open: string; close: string },
  stop: (char: string | undefined) => boolean,
): ScanConfig {
  return {
    quotes: "all",
    escapes: "any",
    inDouble: false,
    nest,
    stop: (state, depth) => depth === 0 && stop(state.char()),
  };
}

const PARENS = { open: "(", close: ")" };
const BRACKETS = { open: "[", close: "]" };

/** Arithmetic text up to a `)` at depth 0 (the caller checks what follows it). */
export function scanArithmeticToParen(state: ParserState): Arithmetic {
  const start = state.pos;
  const { parts } = scanParts(
    state,
    config(PARENS, (char) => char === ")"),
  );
  return { type: "Arithmetic", parts, start, end: state.pos };
}

/** Arithmetic text up to a `]` at depth 0 (subscripts, `$[…]`). */
export function scanArithmeticToBracket(state: ParserState): Arithmetic {
  const start = state.pos;
  const { parts } = scanParts(
    state,
    config(BRACKETS, (char) => char === "]"),
  );
  return { type: "Arithmetic", parts, start, end: state.pos };
}

/** Arithmetic text up to one of `stops` at depth 0 (substring offsets, `for ((;;))` clauses). */
export function scanArithmeticTo(state: ParserState, stops: string): Arithmetic {
  const start = state.pos;
  const { parts } = scanParts(
    state,
    config(PARENS, (char) => char !== undefined && stops.includes(char)),
  );
  return { type: "Arithmetic", parts, start, end: state.pos };
}

/**
 * `((…))` from `pos` at the first `(`: the arithmetic and the offset after `))`, or null
 * when the text is not closed by `))` (bash then reads nested subshells instead).
 */
export function tryDoubleParen(state: ParserState): Arithmetic | null {
  const saved = state.pos;
  state.pos += 2;
  try {
    const expression = scanArithmeticToParen(state);
    if (state.startsWith("))")) {
      state.pos += 2;
      return expression;
    }
  } catch (error) {
    if (!(error instanceof SyntaxFailure)) throw error;
  }
  state.pos = saved;
  return null;
}
