/** Mutable state shared by the scanner, lexer and parser while one source is parsed. */
import type { Heredoc, Redirect, Script } from "./ast-command.js";
import { SyntaxFailure } from "./syntax-failure.js";

/** A here-document whose body is read after the next newline token. */
export interface PendingHeredoc {
  readonly delimiter: string;
  readonly quoted: boolean;
  readonly stripTabs: boolean;
  /** Filled in when the body is read. */
  readonly redirect: { heredoc: Heredoc | null } & Redirect;
}

/** Deepest nesting of commands, substitutions and expressions before the parser refuses. */
export const MAX_NESTING = 200;

export class ParserState {
  readonly source: string;
  pos = 0;
  depth = 0;
  readonly pendingHeredocs: PendingHeredoc[] = [];
  /** Parses `list )` at `pos` (the opener already consumed); supplied by the parser. */
  readonly parseNested: (state: ParserState) => Script;
  /** Parses a whole separate source (a backquote body) with the same rules. */
  readonly parseSeparate: (source: string, depth: number) => Script;

  constructor(
    source: string,
    parseNested: (state: ParserState) => Script,
    parseSeparate: (source: string, depth: number) => Script,
  ) {
    this.source = source;
    this.parseNested = parseNested;
    this.parseSeparate = parseSeparate;
  }

  char(offset = this.pos): string | undefined {
    return this.source[offset];
  }

  startsWith(text: string, offset = this.pos): boolean {
    return this.source.startsWith(text, offset);
  }

  atEnd(): boolean {
    return this.pos >= this.source.length;
  }

  enter(): void {
    this.depth += 1;
    if (this.depth > MAX_NESTING) {
      throw new SyntaxFailure(`nesting deeper than ${MAX_NESTING} levels`, this.pos);
    }
  }

  leave(): void {
    this.depth -= 1;
  }
}

/** The first offset at or after `offset` that does not start a line continuation. */
export function skipContinuations(state: ParserState, offset: number): number {
  let at = offset;
  while (state.char(at) === "\\" && state.char(at + 1) === "\n") at += 2;
  return at;
}

/**
 * The end of `operator` written at `offset`, or -1. bash removes line continuations
 * before it reads a token, so one may split an operator: `|\<newline>|` is `||`.
 */
export function operatorEnd(state: ParserState, operator: string, offset: number): number {
  let at = offset;
  for (let index = 0; index < operator.length; index += 1) {
    if (index > 0) at = skipContinuations(state, at);
    if (state.char(at) !== operator[index]) return -1;
    at += 1;
  }
  return at;
}
