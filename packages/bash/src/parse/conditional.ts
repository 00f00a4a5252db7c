/** `[[ … ]]`: its own tokens (`&&`, `||`, `!`, `( )`, `<`, `>`) and expression grammar. */
import type { ConditionalCommand } from "./ast-command.js";
import type { ConditionalExpression } from "./ast-conditional.js";
import type { Word } from "./ast-word.js";
import { isBlank, isMetacharacter } from "./characters.js";
import { COMMAND_WORD } from "./lexer.js";
import { literalOf, type Parser } from "./parser.js";
import { operatorEnd, type ParserState } from "./parser-state.js";
import { type ScanConfig, scanParts } from "./scan-parts.js";
import { unexpectedEnd, unexpectedToken } from "./syntax-failure.js";

const UNARY = new Set("abcdefghknoprstuvwxzGLNORS".split("").map((letter) => `-${letter}`));
const BINARY = new Set([
  "==",
  "=",
  "!=",
  "=~",
  "-eq",
  "-ne",
  "-lt",
  "-le",
  "-gt",
  "-ge",
  "-nt",
  "-ot",
  "-ef",
]);

type CondToken =
  | {
      readonly kind:
        | "close"
        | "and"
        | "or"
        | "open"
        | "shut"
        | "less"
        | "greater"
        | "newline"
        | "end";
      readonly start: number;
      readonly end: number;
    }
  | { readonly kind: "word"; readonly word: Word; readonly start: number; readonly end: number };

const REGEX: ScanConfig = {
  quotes: "all",
  escapes: "any",
  inDouble: false,
  nest: { open: "(", close: ")" },
  stop: (state, depth) => {
    const char = state.char();
    return (
      (depth === 0 && (isBlank(char) || char === "\n" || char === ")")) ||
      (depth === 0 && char === undefined)
    );
  },
};

/** Blanks always; newlines only where bash allows them (before an expression, after a complete one). */
function skipSpace(state: ParserState, newlines: boolean): void {
  for (;;) {
    const char = state.char();
    if (isBlank(char) || (newlines && char === "\n")) state.pos += 1;
    else if (char === "\\" && state.char(state.pos + 1) === "\n") state.pos += 2;
    else return;
  }
}

function scanWord(state: ParserState, config: ScanConfig): Word {
  const start = state.pos;
  const { parts, flags } = scanParts(state, config);
  return { type: "Word", parts, flags, start, end: state.pos };
}

function read(state: ParserState, regex: boolean, newlines: boolean): CondToken {
  skipSpace(state, newlines);
  const start = state.pos;
  const symbol = (kind: CondToken["kind"], length: number): CondToken => {
    state.pos += length;
    return { kind, start, end: state.pos } as CondToken;
  };
  // A line continuation may split a two-character operator (`&\<newline>&` is `&&`).
  const pair = (kind: CondToken["kind"], text: string): CondToken | null => {
    const end = operatorEnd(state, text, start);
    return end < 0 ? null : symbol(kind, end - start);
  };
  if (state.atEnd()) return symbol("end", 0);
  if (state.char() === "\n") return symbol("newline", 1);
  if (!regex) {
    if (
      state.startsWith("]]") &&
      (isMetacharacter(state.char(start + 2)) || state.char(start + 2) === undefined)
    ) {
      return symbol("close", 2);
    }
    const logical = pair("and", "&&") ?? pair("or", "||");
    if (logical !== null) return logical;
    if (state.char() === "(") return symbol("open", 1);
    if (state.char() === ")") return symbol("shut", 1);
    if (state.char() === "<") return symbol("less", 1);
    if (state.char() === ">") return symbol("greater", 1);
  }
  const word = scanWord(state, regex ? REGEX : COMMAND_WORD);
  if (word.end === start) throw unexpectedToken(state.char() ?? "newline", start);
  return { kind: "word", word, start, end: word.end };
}

class ConditionalParser {
  private readonly state: ParserState;

  constructor(state: ParserState) {
    this.state = state;
  }

  peek(newlines = true): CondToken {
    const saved = this.state.pos;
    const token = read(this.state, false, newlines);
    this.state.pos = saved;
    return token;
  }

  next(newlines = true, regex = false): CondToken {
    return read(this.state, regex, newlines);
  }

  fail(token: CondToken): never {
    if (token.kind === "end") throw unexpectedEnd(token.start);
    if (token.kind === "newline") throw unexpectedToken("newline", token.start);
    throw unexpectedToken(this.state.source.slice(token.start, token.end), token.start);
  }

  operand(): Word {
    const token = this.next(false);
    if (token.kind !== "word") this.fail(token);
    return token.word;
  }

  parseOr(): ConditionalExpression {
    let left = this.parseAnd();
    while (this.peek().kind === "or") {
      this.next();
      const right = this.parseAnd();
      left = {
        type: "ConditionalLogical",
        operator: "||",
        left,
        right,
        start: left.start,
        end: right.end,
      };
    }
    return left;
  }

  parseAnd(): ConditionalExpression {
    let left = this.parseNot();
    while (this.peek().kind === "and") {
      this.next();
      const right = this.parseNot();
      left = {
        type: "ConditionalLogical",
        operator: "&&",
        left,
        right,
        start: left.start,
        end: right.end,
      };
    }
    return left;
  }

  parseNot(): ConditionalExpression {
    const token = this.peek();
    if (token.kind === "word" && literalOf(token.word) === "!") {
      this.next();
      this.state.enter();
      const operand = this.parseNot();
      this.state.leave();
      return { type: "ConditionalNot", operand, start: token.start, end: operand.end };
    }
    return this.parsePrimary();
  }

  parsePrimary(): ConditionalExpression {
    const token = this.next();
    if (token.kind === "open") {
      this.state.enter();
      const expression = this.parseOr();
      this.state.leave();
      const close = this.next();
      if (close.kind !== "shut") this.fail(close);
      return { type: "ConditionalGroup", expression, start: token.start, end: close.end };
    }
    if (token.kind !== "word") this.fail(token);
    const text = literalOf(token.word);
    const after = this.peek(false);
    if (after.kind === "newline") this.fail(after);
    // bash reads a unary operator's word as one whatever follows: `[[ -n == x ]]` is `-n`
    // applied to `==` and then a stray `x`, and `[[ -n ]]` lacks its argument.
    if (text !== null && UNARY.has(text)) {
      const operand = this.operand();
      return {
        type: "ConditionalUnary",
        operator: text,
        operand,
        start: token.start,
        end: operand.end,
      };
    }
    const operator =
      after.kind === "less"
        ? "<"
        : after.kind === "greater"
          ? ">"
          : after.kind === "word"
            ? literalOf(after.word)
            : null;
    if (operator !== null && (BINARY.has(operator) || operator === "<" || operator === ">")) {
      this.next();
      const right = this.next(false, operator === "=~");
      if (right.kind !== "word") this.fail(right);
      return {
        type: "ConditionalBinary",
        operator,
        left: token.word,
        right: right.word,
        start: token.start,
        end: right.end,
      };
    }
    return { type: "ConditionalWord", word: token.word, start: token.start, end: token.end };
  }
}

/** `[[ expression ]]` at the `[[` token. */
export function parseConditional(parser: Parser): ConditionalCommand {
  const start = parser.next().start;
  const conditional = new ConditionalParser(parser.state);
  const expression = conditional.parseOr();
  const close = conditional.next();
  if (close.kind !== "close") conditional.fail(close);
  return { type: "Conditional", expression, start, end: close.end };
}
