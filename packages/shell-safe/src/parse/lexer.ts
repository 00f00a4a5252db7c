import type { Span, Word } from "./ast.js";
import { isBlank } from "./characters.js";
import { LABELS } from "./labels.js";
import { type RedirectToken, scanRedirect } from "./redirect-operator.js";
import { dynamicConstruct, malformed, unsupportedConstruct } from "./refusal.js";
import { SourceReader } from "./source-reader.js";
import { scanWord } from "./word-scanner.js";

export type ControlOperator = "|" | "&&" | "||" | ";" | "\n";

export type Token =
  | ({ readonly type: "word"; readonly word: Word } & Span)
  | ({ readonly type: "operator"; readonly op: ControlOperator } & Span)
  | RedirectToken
  | { readonly type: "eof"; readonly start: number };

/**
 * Splits the source into words, control operators and redirection operators, refusing
 * every operator outside the subset at the point it appears. `#` at the start of a
 * token begins a comment that runs to the newline (continuations do not extend it).
 */
export class Lexer {
  private readonly reader: SourceReader;
  private position = 0;

  constructor(source: string) {
    this.reader = new SourceReader(source);
  }

  next(): Token {
    const source = this.reader.source;
    let at = this.skipBlanksAndComments();
    const char = source[at];
    if (char === undefined) return { type: "eof", start: at };
    if (char === "\n") return this.operator("\n", at, at + 1);
    if (char === ";") {
      const next = this.reader.peek(at + 1);
      if (next.char === ";") throw malformed("`;;` outside a case statement", at, next.at + 1);
      return this.operator(";", at, at + 1);
    }
    if (char === "|") return this.scanPipe(at);
    if (char === "&") return this.scanAmpersand(at);
    if (char === "(" || char === ")") throw dynamicConstruct(LABELS.subshell, at, at + 1);
    if (char === "<" || char === ">") return this.redirect(scanRedirect(this.reader, at, null));
    const word = scanWord(this.reader, at);
    at = word.end;
    const follower = this.reader.peek(at);
    if (follower.char === "<" || follower.char === ">") {
      const digits = fdDigits(word);
      if (digits !== null) {
        return this.redirect(scanRedirect(this.reader, follower.at, { digits, start: word.start }));
      }
      if (isNamedFd(word)) throw unsupportedConstruct(LABELS.namedFd, word.start, follower.at + 1);
    }
    this.position = word.end;
    return { type: "word", word, start: word.start, end: word.end };
  }

  private skipBlanksAndComments(): number {
    const source = this.reader.source;
    let at = this.position;
    for (;;) {
      at = this.reader.skipContinuations(at);
      const char = source[at];
      if (isBlank(char)) {
        at += 1;
      } else if (char === "#") {
        const newline = source.indexOf("\n", at);
        at = newline < 0 ? source.length : newline;
      } else {
        return at;
      }
    }
  }

  private operator(op: ControlOperator, start: number, end: number): Token {
    this.position = end;
    return { type: "operator", op, start, end };
  }

  private redirect(token: RedirectToken): Token {
    this.position = token.type === "duplicate" ? token.end : token.operatorSpan.end;
    return token;
  }

  private scanPipe(at: number): Token {
    const next = this.reader.peek(at + 1);
    if (next.char === "|") return this.operator("||", at, next.at + 1);
    if (next.char === "&") throw unsupportedConstruct(LABELS.background, at, next.at + 1);
    return this.operator("|", at, at + 1);
  }

  private scanAmpersand(at: number): Token {
    const next = this.reader.peek(at + 1);
    if (next.char === "&") return this.operator("&&", at, next.at + 1);
    const end = next.char === ">" ? next.at + 1 : at + 1;
    throw unsupportedConstruct(LABELS.background, at, end);
  }
}

/** The digits of a word made only of unquoted digits (an fd prefix before `<`/`>`). */
function fdDigits(word: Word): string | null {
  const only = word.parts.length === 1 ? word.parts[0] : undefined;
  if (only?.type !== "literal") return null;
  for (const char of only.value) if (char < "0" || char > "9") return null;
  return only.value;
}

/** `{name}` written directly before a redirection: bash allocates an fd into `name`. */
function isNamedFd(word: Word): boolean {
  const first = word.parts[0];
  const last = word.parts[word.parts.length - 1];
  return (
    first?.type === "literal" &&
    first.value.startsWith("{") &&
    last?.type === "literal" &&
    last.value.endsWith("}")
  );
}
