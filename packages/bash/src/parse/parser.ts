/** Recursive descent over the lexer: lists, and-or lists, pipelines, and command dispatch. */
import type { AndOr, Command, List, Pipeline, Redirect, Statement } from "./ast-command.js";
import type { Word } from "./ast-word.js";
import { parseCompound, startsCompound } from "./compound.js";
import { parseFunctionKeyword, parseFunctionParens } from "./function-definition.js";
import { Lexer, type Token } from "./lexer.js";
import type { ParserState } from "./parser-state.js";
import { parseRedirect, parseSimpleCommand } from "./simple-command.js";
import { SyntaxFailure, unexpectedEnd, unexpectedToken, unmatched } from "./syntax-failure.js";

/** Words that end a compound list when they appear in command position. */
const LIST_END_WORDS = new Set(["then", "elif", "else", "fi", "do", "done", "esac", "}"]);
const LIST_END_OPERATORS = new Set([")", ";;", ";&", ";;&"]);

export class Parser {
  readonly state: ParserState;
  readonly lexer: Lexer;

  constructor(state: ParserState) {
    this.state = state;
    this.lexer = new Lexer(state);
  }

  peek(): Token {
    return this.lexer.peek();
  }

  next(): Token {
    return this.lexer.next();
  }

  /** The unquoted literal text of a word token, or null. */
  literal(token: Token): string | null {
    return token.kind === "word" ? literalOf(token.word) : null;
  }

  isWord(token: Token, text: string): boolean {
    return this.literal(token) === text;
  }

  fail(token: Token): never {
    if (token.kind === "end") throw unexpectedEnd(token.start);
    if (token.kind === "newline") throw unexpectedToken("newline", token.start);
    throw unexpectedToken(this.state.source.slice(token.start, token.end), token.start);
  }

  expectWord(text: string): Token {
    const token = this.peek();
    if (!this.isWord(token, text)) this.fail(token);
    return this.next();
  }

  expectOperator(operator: string): Token {
    const token = this.peek();
    if (token.kind !== "operator" || token.operator !== operator) this.fail(token);
    return this.next();
  }

  skipNewlines(): void {
    while (this.peek().kind === "newline") this.next();
  }

  isListEnd(token: Token): boolean {
    if (token.kind === "end") return true;
    if (token.kind === "operator") return LIST_END_OPERATORS.has(token.operator);
    const literal = this.literal(token);
    return literal !== null && LIST_END_WORDS.has(literal);
  }

  /** Statements up to a list end (see `isListEnd`); the caller checks what ends it. */
  parseList(): List {
    this.skipNewlines();
    const statements: Statement[] = [];
    const start = this.peek().start;
    for (;;) {
      const token = this.peek();
      if (this.isListEnd(token)) break;
      const andOr = this.parseAndOr();
      const separator = this.peek();
      const background = separator.kind === "operator" && separator.operator === "&";
      const end = background ? separator.end : andOr.end;
      statements.push({ type: "Statement", andOr, background, start: andOr.start, end });
      if (
        separator.kind === "operator" &&
        (separator.operator === ";" || separator.operator === "&")
      ) {
        this.next();
      } else if (separator.kind !== "newline") {
        break;
      }
      this.skipNewlines();
    }
    const first = statements[0];
    const last = statements[statements.length - 1];
    return {
      type: "List",
      statements,
      start: first?.start ?? start,
      end: last?.end ?? start,
    };
  }

  /** A list that bash requires to hold at least one command. */
  parseNonEmptyList(): List {
    const list = this.parseList();
    if (list.statements.length === 0) this.fail(this.peek());
    return list;
  }

  parseAndOr(): AndOr {
    const pipelines = [this.parsePipeline()];
    const operators: ("&&" | "||")[] = [];
    for (;;) {
      const token = this.peek();
      if (token.kind !== "operator" || (token.operator !== "&&" && token.operator !== "||")) break;
      this.next();
      operators.push(token.operator);
      this.skipNewlines();
      pipelines.push(this.parsePipeline());
    }
    const first = pipelines[0] as Pipeline;
    const last = pipelines[pipelines.length - 1] as Pipeline;
    return { type: "AndOr", pipelines, operators, start: first.start, end: last.end };
  }

  parsePipeline(): Pipeline {
    const start = this.peek().start;
    let timed: Pipeline["timed"] = null;
    let negated = false;
    let bangs = 0;
    for (;;) {
      const token = this.peek();
      if (timed === null && this.isWord(token, "time")) {
        this.next();
        timed = "time";
        if (this.isWord(this.peek(), "-p")) {
          this.next();
          timed = "time -p";
        }
      } else if (this.isWord(token, "!")) {
        this.next();
        negated = !negated;
        bangs += 1;
      } else break;
    }
    const commands: Command[] = [];
    const operators: ("|" | "|&")[] = [];
    const after = this.peek();
    // bash accepts `time` and `!` with no command (`time;`, `!` alone on a line), but not
    // sent to the background (`! &` and `time &` are syntax errors at `&`).
    const bare =
      (timed !== null || bangs > 0) &&
      (this.isListEnd(after) || after.kind === "newline" || isSemicolon(after));
    if (!bare) commands.push(this.parseCommand());
    for (;;) {
      const token = this.peek();
      if (bare || token.kind !== "operator" || (token.operator !== "|" && token.operator !== "|&"))
        break;
      this.next();
      operators.push(token.operator);
      this.skipNewlines();
      commands.push(this.parseCommand());
    }
    const end = commands[commands.length - 1]?.end ?? this.state.pos;
    return {
      type: "Pipeline",
      negated,
      timed,
      commands,
      operators,
      start,
      end: Math.max(end, start),
    };
  }

  parseCommand(): Command {
    this.state.enter();
    try {
      return this.parseCommandInner();
    } finally {
      this.state.leave();
    }
  }

  private parseCommandInner(): Command {
    const token = this.peek();
    if (token.kind === "redirect") return parseSimpleCommand(this, null);
    if (startsCompound(this, token)) return parseCompound(this);
    if (token.kind !== "word") this.fail(token);
    const literal = this.literal(token);
    if (literal === "function") return parseFunctionKeyword(this);
    if (literal === "coproc") {
      throw new SyntaxFailure("coproc: coprocesses are not supported by this shell", token.start);
    }
    if (literal !== null && (LIST_END_WORDS.has(literal) || literal === "!")) this.fail(token);
    this.next();
    const after = this.peek();
    if (
      literal !== null &&
      after.kind === "operator" &&
      after.operator === "(" &&
      isFunctionName(literal)
    ) {
      return parseFunctionParens(this, token);
    }
    return parseSimpleCommand(this, token);
  }

  /** Redirections after a compound command. */
  parseTrailingRedirects(): Redirect[] {
    const redirects: Redirect[] = [];
    for (let token = this.peek(); token.kind === "redirect"; token = this.peek()) {
      this.next();
      redirects.push(parseRedirect(this, token));
    }
    return redirects;
  }

  /** After a nested list: the `)` that closes `$(`, `<(` or `>(`. */
  expectClosingParen(openedAt: number): Token {
    const token = this.peek();
    if (token.kind === "end") throw unmatched(")", openedAt);
    return this.expectOperator(")");
  }
}

/** A word written as plain unquoted text (no quotes, escapes, expansions or continuations), or null. */
export function literalOf(word: Word): string | null {
  const [part, ...rest] = word.parts;
  return part?.type === "Literal" &&
    rest.length === 0 &&
    part.end - part.start === part.value.length
    ? part.value
    : null;
}

function isSemicolon(token: Token): boolean {
  return token.kind === "operator" && token.operator === ";";
}

function isFunctionName(name: string): boolean {
  return name.length > 0 && !name.includes("$") && !name.includes("=");
}
