/** Simple commands: assignments, words and redirections in any order; array literals. */

import { scanArithmeticToBracket } from "./arithmetic-text.js";
import type {
  ArrayElement,
  ArrayLiteral,
  Assignment,
  Redirect,
  SimpleCommand,
} from "./ast-command.js";
import type { Word } from "./ast-word.js";
import { isBlank, isMetacharacter, isNameChar, isNameStart } from "./characters.js";
import { delimiterText } from "./heredoc.js";
import { COMMAND_WORD, skipBlanks, type Token } from "./lexer.js";
import { literalOf, type Parser } from "./parser.js";
import type { PendingHeredoc } from "./parser-state.js";
import { scanParts } from "./scan-parts.js";
import { unexpectedToken, unmatched } from "./syntax-failure.js";

/** Builtins whose `name=(…)` / `name=value` arguments are assignments. */
const DECLARATION_BUILTINS = new Set(["declare", "typeset", "local", "export", "readonly"]);

/** The word after a redirection operator (`2>&1>f`: the `1` is a word here, not a descriptor prefix). */
function redirectTarget(parser: Parser): Word {
  const state = parser.state;
  skipBlanks(state);
  const char = state.char();
  const processSubstitution = (char === "<" || char === ">") && state.char(state.pos + 1) === "(";
  // At the end of input bash reports the missing word as `newline`, like a line break.
  if (char === undefined) throw unexpectedToken("newline", state.pos);
  if (isMetacharacter(char) && !processSubstitution) parser.fail(parser.peek());
  return scanWordAt(parser, state.pos);
}

export function parseRedirect(parser: Parser, token: Token & { kind: "redirect" }): Redirect {
  const target = redirectTarget(parser);
  const redirect = {
    type: "Redirect" as const,
    fd: token.fd,
    fdVariable: token.fdVariable,
    operator: token.operator,
    target,
    heredoc: null,
    start: token.start,
    end: target.end,
  };
  if (token.operator === "<<" || token.operator === "<<-") {
    const pending: PendingHeredoc = {
      delimiter: delimiterText(parser.state.source, target.parts),
      quoted: target.flags.quoted,
      stripTabs: token.operator === "<<-",
      redirect,
    };
    parser.state.pendingHeredocs.push(pending);
  }
  return redirect;
}

function scanWordAt(parser: Parser, start: number): Word {
  const state = parser.state;
  state.pos = start;
  const { parts, flags } = scanParts(state, COMMAND_WORD);
  return { type: "Word", parts, flags, start, end: state.pos };
}

function skipArrayBlanks(parser: Parser): void {
  const state = parser.state;
  for (;;) {
    const char = state.char();
    if (isBlank(char) || char === "\n") state.pos += 1;
    else if (char === "\\" && state.char(state.pos + 1) === "\n") state.pos += 2;
    else if (char === "#") {
      const newline = state.source.indexOf("\n", state.pos);
      state.pos = newline < 0 ? state.source.length : newline;
    } else return;
  }
}

function parseArrayElement(parser: Parser): ArrayElement {
  const state = parser.state;
  const start = state.pos;
  if (state.char() === "[") {
    state.pos += 1;
    const index = scanArithmeticToBracket(state);
    const append = state.startsWith("]+=");
    if (state.startsWith("]=") || append) {
      const value = scanWordAt(parser, state.pos + (append ? 3 : 2));
      const indexWord: Word = {
        type: "Word",
        parts: index.parts,
        flags: value.flags,
        start: index.start,
        end: index.end,
      };
      return { type: "ArrayElement", index: indexWord, append, value, start, end: value.end };
    }
  }
  const value = scanWordAt(parser, start);
  if (value.end === start) parser.fail(parser.peek());
  return { type: "ArrayElement", index: null, append: false, value, start, end: value.end };
}

/** `(elements…)` at `state.pos` on the `(`. */
function parseArrayLiteral(parser: Parser): ArrayLiteral {
  const state = parser.state;
  const start = state.pos;
  state.pos += 1;
  const elements: ArrayElement[] = [];
  for (;;) {
    skipArrayBlanks(parser);
    if (state.atEnd()) throw unmatched(")", start);
    if (state.char() === ")") break;
    elements.push(parseArrayElement(parser));
  }
  state.pos += 1;
  return { type: "ArrayLiteral", elements, start, end: state.pos };
}

/** Where `name`, `name[…]` ends in the word's source and what follows (`=` or `+=`), or null. */
function assignmentShape(
  source: string,
  word: Word,
): { nameEnd: number; operatorAt: number } | null {
  const first = word.parts[0];
  if (first?.type !== "Literal" || !isNameStart(source[word.start])) return null;
  let index = word.start + 1;
  while (isNameChar(source[index])) index += 1;
  const nameEnd = index;
  if (source[index] === "[") {
    let depth = 0;
    for (; index < word.end; index += 1) {
      if (source[index] === "[") depth += 1;
      else if (source[index] === "]" && --depth === 0) break;
    }
    if (index >= word.end) return null;
    index += 1;
  }
  if (source[index] === "=" || source.startsWith("+=", index))
    return { nameEnd, operatorAt: index };
  return null;
}

function tryAssignment(parser: Parser, word: Word): Assignment | null {
  const state = parser.state;
  const shape = assignmentShape(state.source, word);
  if (shape === null) return null;
  const saved = state.pos;
  const pending = state.pendingHeredocs.length;
  const name = state.source.slice(word.start, shape.nameEnd);
  let index: Word | null = null;
  if (shape.nameEnd < shape.operatorAt) {
    state.pos = shape.nameEnd + 1;
    const expression = scanArithmeticToBracket(state);
    index = {
      type: "Word",
      parts: expression.parts,
      flags: word.flags,
      start: expression.start,
      end: expression.end,
    };
  }
  const append = state.source[shape.operatorAt] === "+";
  const valueStart = shape.operatorAt + (append ? 2 : 1);
  let value: Word | ArrayLiteral;
  // `a[1]=(x)` parses (bash refuses it when it runs: "cannot assign list to array member").
  if (valueStart === word.end && state.char(valueStart) === "(") {
    state.pos = valueStart;
    value = parseArrayLiteral(parser);
  } else {
    value = scanWordAt(parser, valueStart);
    state.pos = saved;
  }
  // A rescanned value registers its here-documents a second time: keep the first registration.
  if (value.type === "Word") state.pendingHeredocs.length = pending;
  return {
    type: "Assignment",
    name,
    index,
    append,
    value,
    start: word.start,
    end: Math.max(value.end, word.end),
  };
}

/**
 * A simple command; `first` is an already consumed first word token, if any.
 *
 * Like bash, a word is an assignment only where bash's lexer still accepts one: before the
 * command word while no redirection has followed an assignment (`>f a=(1)` and
 * `a=1 b=(2)` are assignments, `a=1 >f b=(2)` is a syntax error at `(`), and as an
 * argument of a declaration builtin that stood in that position, with no redirection
 * since it (`declare >f x=(1)` is a syntax error too).
 */
export function parseSimpleCommand(parser: Parser, first: Token | null): SimpleCommand {
  const assignments: Assignment[] = [];
  const words: (Word | Assignment)[] = [];
  const redirects: Redirect[] = [];
  let assignable = true;
  let declarationArguments = false;
  let start = first?.start ?? parser.peek().start;
  let end = start;
  let token: Token | null = first;
  for (;;) {
    if (token === null) {
      const next = parser.peek();
      if (next.kind !== "word" && next.kind !== "redirect") break;
      token = parser.next();
    }
    if (token.kind === "redirect") {
      const redirect = parseRedirect(parser, token);
      redirects.push(redirect);
      end = redirect.end;
      if (assignments.length > 0 || words.length > 0) assignable = false;
      declarationArguments = false;
    } else if (token.kind === "word") {
      const word = token.word;
      const command = words.length === 0;
      const assignment =
        (command && assignable) || declarationArguments ? tryAssignment(parser, word) : null;
      if (assignment === null) words.push(word);
      else if (command) assignments.push(assignment);
      else words.push(assignment);
      if (command && assignment === null)
        declarationArguments = assignable && DECLARATION_BUILTINS.has(literalOf(word) ?? "");
      end = Math.max(word.end, assignment?.end ?? 0);
    }
    token = null;
  }
  if (assignments.length + words.length + redirects.length === 0) parser.fail(parser.peek());
  start = Math.min(start, assignments[0]?.start ?? start);
  return { type: "SimpleCommand", assignments, words, redirects, start, end };
}
