/**
 * The token stream of the bash grammar: words (scanned with their parts), control and
 * redirection operators (with `2>` descriptor numbers and `{name}>` variables), newlines.
 * Reserved words are ordinary word tokens; the parser recognises them in command position.
 */
import type { RedirectOperator } from "./ast-command.js";
import type { Word } from "./ast-word.js";
import { isBlank, isDigit, isMetacharacter, isName } from "./characters.js";
import { readPendingHeredocs } from "./heredoc.js";
import { operatorEnd, type ParserState, skipContinuations } from "./parser-state.js";
import { type ScanConfig, scanParts } from "./scan-parts.js";

export type ControlOperator =
  | ";;&"
  | ";;"
  | ";&"
  | ";"
  | "&&"
  | "||"
  | "|&"
  | "&"
  | "|"
  | "("
  | ")";

export type Token =
  | { readonly kind: "word"; readonly word: Word; readonly start: number; readonly end: number }
  | {
      readonly kind: "operator";
      readonly operator: ControlOperator;
      readonly start: number;
      readonly end: number;
    }
  | {
      readonly kind: "redirect";
      readonly operator: RedirectOperator;
      readonly fd: number | null;
      readonly fdVariable: string | null;
      readonly start: number;
      readonly end: number;
    }
  | { readonly kind: "newline"; readonly start: number; readonly end: number }
  | { readonly kind: "end"; readonly start: number; readonly end: number };

const CONTROL: readonly ControlOperator[] = [
  ";;&",
  ";;",
  ";&",
  "&&",
  "||",
  "|&",
  ";",
  "&",
  "|",
  "(",
  ")",
];
const REDIRECT: readonly RedirectOperator[] = [
  "<<<",
  "<<-",
  "&>>",
  "&>",
  ">>",
  ">|",
  "<>",
  "<&",
  ">&",
  "<<",
  "<",
  ">",
];

export const COMMAND_WORD: ScanConfig = {
  quotes: "all",
  escapes: "any",
  inDouble: false,
  command: true,
  stop: (state) => isMetacharacter(state.char()),
};

/** Skip blanks, line continuations and a comment (up to, not including, the newline). */
export function skipBlanks(state: ParserState): void {
  for (;;) {
    const char = state.char();
    if (isBlank(char)) state.pos += 1;
    else if (char === "\\" && state.char(state.pos + 1) === "\n") state.pos += 2;
    else if (char === "#") {
      const newline = state.source.indexOf("\n", state.pos);
      state.pos = newline < 0 ? state.source.length : newline;
    } else return;
  }
}

/** The longest of `operators` (listed longest first) at `offset`, with its end. */
function longestOperator<T extends string>(
  state: ParserState,
  operators: readonly T[],
  offset: number,
): { readonly operator: T; readonly end: number } | undefined {
  for (const operator of operators) {
    const end = operatorEnd(state, operator, offset);
    if (end >= 0) return { operator, end };
  }
  return undefined;
}

function redirectAt(
  state: ParserState,
  offset: number,
): { readonly operator: RedirectOperator; readonly end: number } | undefined {
  if (state.char(offset + 1) === "(" && (state.char(offset) === "<" || state.char(offset) === ">"))
    return undefined;
  return longestOperator(state, REDIRECT, offset);
}

function redirectPrefix(state: ParserState, start: number): Token | null {
  let end = start;
  let fd: number | null = null;
  let fdVariable: string | null = null;
  if (isDigit(state.char(start))) {
    // bash removes a line continuation before it reads a token: `2\<newline>>f` is `2>f`.
    let digits = "";
    for (;;) {
      end = skipContinuations(state, end);
      if (!isDigit(state.char(end))) break;
      digits += state.char(end);
      end += 1;
    }
    fd = Number(digits);
  } else if (state.char(start) === "{") {
    const close = state.source.indexOf("}", start);
    if (close < 0 || !isName(state.source.slice(start + 1, close))) return null;
    fdVariable = state.source.slice(start + 1, close);
    end = close + 1;
  }
  const found = redirectAt(state, end);
  if (found === undefined || (found.operator.startsWith("&") && end !== start)) return null;
  state.pos = found.end;
  return { kind: "redirect", operator: found.operator, fd, fdVariable, start, end: state.pos };
}

function readToken(state: ParserState): Token {
  skipBlanks(state);
  const start = state.pos;
  const char = state.char();
  if (char === undefined) return { kind: "end", start, end: start };
  if (char === "\n") {
    state.pos += 1;
    return { kind: "newline", start, end: state.pos };
  }
  if (isDigit(char) || char === "{" || char === "<" || char === ">" || char === "&") {
    const redirect = redirectPrefix(state, start);
    if (redirect !== null) return redirect;
  }
  const isProcessSubstitution = (char === "<" || char === ">") && state.char(start + 1) === "(";
  if (!isProcessSubstitution) {
    const found = longestOperator(state, CONTROL, start);
    if (found !== undefined) {
      state.pos = found.end;
      return { kind: "operator", operator: found.operator, start, end: state.pos };
    }
  }
  const { parts, flags } = scanParts(state, COMMAND_WORD);
  const word: Word = { type: "Word", parts, flags, start, end: state.pos };
  return { kind: "word", word, start, end: state.pos };
}

/** One token of lookahead over the shared state; consuming a newline reads pending here-documents. */
export class Lexer {
  private readonly state: ParserState;
  private cache: { readonly at: number; readonly token: Token; readonly after: number } | null =
    null;

  constructor(state: ParserState) {
    this.state = state;
  }

  peek(): Token {
    if (this.cache?.at !== this.state.pos) {
      const at = this.state.pos;
      const token = readToken(this.state);
      this.cache = { at, token, after: this.state.pos };
      this.state.pos = at;
    }
    return this.cache.token;
  }

  next(): Token {
    const token = this.peek();
    this.state.pos = this.cache?.after ?? this.state.pos;
    this.cache = null;
    if (token.kind === "newline") readPendingHeredocs(this.state);
    return token;
  }
}
