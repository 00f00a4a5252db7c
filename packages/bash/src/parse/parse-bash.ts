/** Entry point: `parseBash(source)` → the script's AST, or a bash-like syntax error with its line. */
import type { Script } from "./ast-command.js";
import { Parser } from "./parser.js";
import { ParserState } from "./parser-state.js";
import { SyntaxFailure, unmatched } from "./syntax-failure.js";

export interface BashSyntaxError {
  /** bash's wording, e.g. ``syntax error near unexpected token `)'``. */
  readonly message: string;
  /** 1-based line of `offset`. */
  readonly line: number;
  readonly offset: number;
}

export type ParseBashResult =
  | { readonly ok: true; readonly script: Script }
  | { readonly ok: false; readonly error: BashSyntaxError };

/**
 * `$(…)`, `<(…)`, `>(…)` bodies. The here-documents of the enclosing command line wait for
 * the newline that ends that line: a newline inside the substitution does not read them
 * (`cat <<E $(echo<newline>echo a)<newline>body<newline>E`).
 */
function parseNested(state: ParserState): Script {
  const openedAt = state.pos;
  const outer = state.pendingHeredocs.splice(0);
  try {
    const parser = new Parser(state);
    const body = parser.parseList();
    const close = parser.peek();
    if (close.kind === "end") throw unmatched(")", openedAt);
    parser.expectClosingParen(openedAt);
    return { type: "Script", body, start: openedAt, end: close.start };
  } finally {
    state.pendingHeredocs.unshift(...outer);
  }
}

function parseSource(source: string, depth: number): Script {
  const state = new ParserState(source, parseNested, parseSource);
  state.depth = depth;
  const parser = new Parser(state);
  const body = parser.parseList();
  const token = parser.peek();
  if (token.kind !== "end") parser.fail(token);
  // Here-documents still pending at the end of input get their (empty or EOF-delimited) bodies.
  parser.next();
  return { type: "Script", body, start: 0, end: source.length };
}

function lineOf(source: string, offset: number): number {
  let line = 1;
  for (
    let index = source.indexOf("\n");
    index >= 0 && index < offset;
    index = source.indexOf("\n", index + 1)
  ) {
    line += 1;
  }
  return line;
}

/** Parse a bash script. Never throws for bad input; refuses `coproc` and nesting deeper than 200. */
export function parseBash(source: string): ParseBashResult {
  try {
    return { ok: true, script: parseSource(source, 0) };
  } catch (error) {
    if (error instanceof SyntaxFailure) {
      const offset = Math.min(error.offset, source.length);
      return { ok: false, error: { message: error.message, line: lineOf(source, offset), offset } };
    }
    throw error;
  }
}
