/** Compound commands: `{ }`, `( )`, `(( ))`, `[[ ]]`, if, while/until, for, select, case. */

import { scanArithmeticTo, tryDoubleParen } from "./arithmetic-text.js";
import type {
  CaseCommand,
  CaseItem,
  Compound,
  CompoundCommand,
  IfClause,
  IfCommand,
  List,
  LoopVariable,
  WhileCommand,
} from "./ast-command.js";
import type { Word } from "./ast-word.js";
import { parseConditional } from "./conditional.js";
import { skipBlanks, type Token } from "./lexer.js";
import type { Parser } from "./parser.js";
import { unexpectedToken } from "./syntax-failure.js";

const COMPOUND_WORDS = new Set(["{", "if", "while", "until", "for", "select", "case", "[["]);

export function startsCompound(parser: Parser, token: Token): boolean {
  if (token.kind === "operator") return token.operator === "(";
  const literal = parser.literal(token);
  return literal !== null && COMPOUND_WORDS.has(literal);
}

/** Reserved words bash no longer recognises right after a redirection's target word. */
const CLOSING_WORDS = new Set(["then", "elif", "else", "fi", "do", "done", "esac", "}"]);

/**
 * A compound command at the current token, with its trailing redirections. After them a
 * closing word is a plain word, so it cannot stand there: `{ (a) >f }` is a syntax error at
 * `}` (`{ (a) }` is not).
 */
export function parseCompound(parser: Parser): CompoundCommand {
  const body = parseCompoundBody(parser);
  const redirects = parser.parseTrailingRedirects();
  const after = parser.peek();
  if (redirects.length > 0 && CLOSING_WORDS.has(parser.literal(after) ?? "")) parser.fail(after);
  const end = redirects[redirects.length - 1]?.end ?? body.end;
  return { type: "CompoundCommand", body, redirects, start: body.start, end };
}

function parseCompoundBody(parser: Parser): Compound {
  const token = parser.peek();
  if (token.kind === "operator") {
    if (parser.state.char(token.start + 1) === "(") {
      parser.state.pos = token.start;
      const expression = tryDoubleParen(parser.state);
      if (expression !== null) {
        return { type: "ArithmeticCommand", expression, start: token.start, end: parser.state.pos };
      }
    }
    return parseGroup(parser, "Subshell", ")");
  }
  switch (parser.literal(token)) {
    case "{":
      return parseGroup(parser, "BraceGroup", "}");
    case "if":
      return parseIf(parser);
    case "while":
    case "until":
      return parseWhile(parser);
    case "for":
      return parseFor(parser);
    case "select":
      return parseSelect(parser);
    case "case":
      return parseCase(parser);
    default:
      return parseConditional(parser);
  }
}

function parseGroup(parser: Parser, type: "Subshell" | "BraceGroup", close: ")" | "}"): Compound {
  const start = parser.next().start;
  const body = parser.parseNonEmptyList();
  const end = (close === ")" ? parser.expectOperator(")") : parser.expectWord("}")).end;
  return { type, body, start, end };
}

function parseIf(parser: Parser): IfCommand {
  const start = parser.peek().start;
  const clauses: IfClause[] = [];
  let elseBody: List | null = null;
  for (;;) {
    const keyword = parser.next();
    const condition = parser.parseNonEmptyList();
    parser.expectWord("then");
    const body = parser.parseNonEmptyList();
    clauses.push({ type: "IfClause", condition, body, start: keyword.start, end: body.end });
    const token = parser.peek();
    if (parser.isWord(token, "elif")) continue;
    if (parser.isWord(token, "else")) {
      parser.next();
      elseBody = parser.parseNonEmptyList();
    }
    break;
  }
  const end = parser.expectWord("fi").end;
  return { type: "If", clauses, elseBody, start, end };
}

/** `do list done`, or `{ list }` (bash accepts it for `for` and `select`). */
function parseLoopBody(parser: Parser, allowBrace: boolean): { body: List; end: number } {
  parser.skipNewlines();
  if (allowBrace && parser.isWord(parser.peek(), "{")) {
    parser.next();
    const body = parser.parseNonEmptyList();
    return { body, end: parser.expectWord("}").end };
  }
  parser.expectWord("do");
  const body = parser.parseNonEmptyList();
  return { body, end: parser.expectWord("done").end };
}

function parseWhile(parser: Parser): WhileCommand {
  const keyword = parser.next();
  const condition = parser.parseNonEmptyList();
  const { body, end } = parseLoopBody(parser, false);
  return {
    type: "While",
    until: parser.isWord(keyword, "until"),
    condition,
    body,
    start: keyword.start,
    end,
  };
}

function parseLoopHead(parser: Parser): { variable: LoopVariable; words: Word[] | null } {
  const nameToken = parser.peek();
  const name = parser.literal(nameToken);
  if (name === null) parser.fail(nameToken);
  parser.next();
  const variable: LoopVariable = {
    type: "LoopVariable",
    name,
    start: nameToken.start,
    end: nameToken.end,
  };
  parser.skipNewlines();
  let words: Word[] | null = null;
  if (parser.isWord(parser.peek(), "in")) {
    parser.next();
    words = [];
    for (let token = parser.peek(); token.kind === "word"; token = parser.peek()) {
      words.push(token.word);
      parser.next();
    }
    const token = parser.peek();
    if (!(token.kind === "newline" || (token.kind === "operator" && token.operator === ";")))
      parser.fail(token);
    parser.next();
  } else {
    const token = parser.peek();
    if (token.kind === "operator" && token.operator === ";") parser.next();
  }
  return { variable, words };
}

function parseFor(parser: Parser): Compound {
  const start = parser.next().start;
  const state = parser.state;
  skipBlanks(state);
  if (state.startsWith("((")) {
    const open = state.pos;
    state.pos += 2;
    const init = scanArithmeticTo(state, ";)");
    if (state.char() !== ";") throw unexpectedToken(state.char() ?? "newline", state.pos);
    state.pos += 1;
    const test = scanArithmeticTo(state, ";)");
    if (state.char() !== ";") throw unexpectedToken(state.char() ?? "newline", state.pos);
    state.pos += 1;
    const update = scanArithmeticTo(state, ")");
    if (!state.startsWith("))"))
      throw unexpectedToken(state.source.slice(open, state.pos + 1), open);
    state.pos += 2;
    const separator = parser.peek();
    if (separator.kind === "operator" && separator.operator === ";") parser.next();
    const { body, end } = parseLoopBody(parser, true);
    return { type: "ArithmeticFor", init, test, update, body, start, end };
  }
  const { variable, words } = parseLoopHead(parser);
  const { body, end } = parseLoopBody(parser, true);
  return { type: "For", variable, words, body, start, end };
}

function parseSelect(parser: Parser): Compound {
  const start = parser.next().start;
  const { variable, words } = parseLoopHead(parser);
  const { body, end } = parseLoopBody(parser, true);
  return { type: "Select", variable, words, body, start, end };
}

function parseCaseItem(parser: Parser): CaseItem {
  let token = parser.peek();
  const start = token.start;
  if (token.kind === "operator" && token.operator === "(") parser.next();
  const patterns: Word[] = [];
  for (;;) {
    token = parser.peek();
    if (token.kind !== "word") parser.fail(token);
    patterns.push(token.word);
    parser.next();
    const separator = parser.peek();
    if (separator.kind !== "operator" || separator.operator !== "|") break;
    parser.next();
  }
  const close = parser.expectOperator(")");
  const body = parser.parseList();
  token = parser.peek();
  let terminator: CaseItem["terminator"] = null;
  let end = body.statements.length > 0 ? body.end : close.end;
  if (
    token.kind === "operator" &&
    (token.operator === ";;" || token.operator === ";&" || token.operator === ";;&")
  ) {
    terminator = token.operator;
    end = parser.next().end;
    parser.skipNewlines();
  } else if (!parser.isWord(token, "esac")) {
    parser.fail(token);
  }
  return { type: "CaseItem", patterns, body, terminator, start, end };
}

function parseCase(parser: Parser): CaseCommand {
  const start = parser.next().start;
  const wordToken = parser.peek();
  if (wordToken.kind !== "word") parser.fail(wordToken);
  parser.next();
  parser.skipNewlines();
  parser.expectWord("in");
  parser.skipNewlines();
  const items: CaseItem[] = [];
  while (!parser.isWord(parser.peek(), "esac")) {
    items.push(parseCaseItem(parser));
  }
  const end = parser.next().end;
  return { type: "Case", word: wordToken.word, items, start, end };
}
