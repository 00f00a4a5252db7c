import { createLineIndex } from "./line-index.js";
import { scanQuoted, scanRegex, scanTemplateChunk } from "./scan-literals.js";
import type { Token, TokenKind } from "./token.js";

// A small JavaScript/TypeScript lexer: enough to tell code from comments, strings,
// templates and regular expressions, so that only real code is matched by the rules.
// It does not parse; JSX is not supported (.tsx files are not scanned).

const KEYWORDS_BEFORE_EXPRESSION = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

/** A `/` starts a regular expression unless the previous token ends an expression. */
function regexAllowed(previous: Token | undefined): boolean {
  if (previous === undefined) return true;
  switch (previous.kind) {
    case "punctuator":
      return ![")", "]", "}"].includes(previous.value);
    case "identifier":
      return KEYWORDS_BEFORE_EXPRESSION.has(previous.value);
    case "template-head":
    case "template-middle":
      return true;
    default:
      return false;
  }
}

const IDENTIFIER_START = /[A-Za-z_$\u0080-\uffff]/;
const IDENTIFIER_PART = /[\w$\u0080-\uffff]/;
const NUMBER_PART = /[\w.]/;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const lineOf = createLineIndex(text);
  const braces: Array<"block" | "substitution"> = [];
  const push = (kind: TokenKind, value: string, offset: number): void => {
    tokens.push({ kind, value, line: lineOf(offset) });
  };
  const template = (start: number, head: boolean): number => {
    const chunk = scanTemplateChunk(text, start + 1);
    if (chunk.opensSubstitution) braces.push("substitution");
    const kind = head
      ? chunk.opensSubstitution
        ? "template-head"
        : "template"
      : chunk.opensSubstitution
        ? "template-middle"
        : "template-tail";
    push(kind, chunk.value, start);
    return chunk.end;
  };

  let position = text.startsWith("#!") ? endOfLine(text, 0) : 0;
  while (position < text.length) {
    const char = text[position] ?? "";
    const next = text[position + 1];
    if (/\s/.test(char)) {
      position += 1;
    } else if (char === "/" && next === "/") {
      position = endOfLine(text, position);
    } else if (char === "/" && next === "*") {
      const close = text.indexOf("*/", position + 2);
      position = close < 0 ? text.length : close + 2;
    } else if (char === '"' || char === "'") {
      const scanned = scanQuoted(text, position);
      push("string", scanned.value, position);
      position = scanned.end;
    } else if (char === "`") {
      position = template(position, true);
    } else if (char === "}" && braces.at(-1) === "substitution") {
      braces.pop();
      position = template(position, false);
    } else if (char === "/" && regexAllowed(tokens.at(-1))) {
      const scanned = scanRegex(text, position);
      push(scanned === undefined ? "punctuator" : "regex", scanned?.value ?? "/", position);
      position = scanned?.end ?? position + 1;
    } else if (IDENTIFIER_START.test(char)) {
      const end = scanWhile(text, position + 1, IDENTIFIER_PART);
      push("identifier", text.slice(position, end), position);
      position = end;
    } else if (/\d/.test(char) || (char === "." && /\d/.test(next ?? ""))) {
      const end = scanWhile(text, position + 1, NUMBER_PART);
      push("number", text.slice(position, end), position);
      position = end;
    } else if (char === "?" && next === "." && !/\d/.test(text[position + 2] ?? "")) {
      push("punctuator", "?.", position);
      position += 2;
    } else {
      if (char === "{") braces.push("block");
      else if (char === "}") braces.pop();
      push("punctuator", char, position);
      position += 1;
    }
  }
  return tokens;
}

function endOfLine(text: string, start: number): number {
  const newline = text.indexOf("\n", start);
  return newline < 0 ? text.length : newline;
}

function scanWhile(text: string, start: number, pattern: RegExp): number {
  let position = start;
  while (position < text.length && pattern.test(text[position] ?? "")) position += 1;
  return position;
}
