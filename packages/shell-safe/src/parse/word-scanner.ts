import type { DoubleQuotedPart, QuotedTextPart, VariablePart, Word, WordPart } from "./ast.js";
import { isMetacharacter } from "./characters.js";
import { scanDollar } from "./dollar-scanner.js";
import { LABELS } from "./labels.js";
import { dynamicConstruct, malformed, unsupportedConstruct } from "./refusal.js";
import type { SourceReader } from "./source-reader.js";

/** Accumulates a run of unquoted literal characters into one part. */
class LiteralRun {
  value = "";
  start = -1;
  end = -1;

  add(char: string, at: number): void {
    if (this.start < 0) this.start = at;
    this.value += char;
    this.end = at + char.length;
  }

  flushInto(parts: WordPart[]): void {
    if (this.start < 0) return;
    parts.push({ type: "literal", value: this.value, start: this.start, end: this.end });
    this.value = "";
    this.start = -1;
  }
}

/**
 * Scans one word starting at `start` (a non-metacharacter, continuations already
 * skipped) up to the first unquoted metacharacter, applying bash's quote rules.
 */
export function scanWord(reader: SourceReader, start: number): Word {
  const parts: WordPart[] = [];
  const run = new LiteralRun();
  let sawAssignmentCharacter = false;
  let position = start;
  for (;;) {
    position = reader.skipContinuations(position);
    const char = reader.source[position];
    if (char === undefined || isMetacharacter(char)) break;
    if (char === "'" || char === '"' || char === "$" || char === "\\") run.flushInto(parts);
    switch (char) {
      case "'":
        position = scanSingleQuoted(reader, position, parts);
        continue;
      case '"':
        position = scanDoubleQuoted(reader, position, parts);
        continue;
      case "\\": {
        const escaped = reader.codePointAt(position + 1);
        if (escaped === "") throw malformed("trailing backslash", position, position + 1);
        const end = position + 1 + escaped.length;
        parts.push({ type: "escaped", value: escaped, start: position, end });
        position = end;
        continue;
      }
      case "$": {
        const variable = scanDollar(reader, position, false);
        parts.push(variable);
        position = variable.end;
        continue;
      }
      case "`":
        throw dynamicConstruct(LABELS.backticks, position, position + 1);
      case "*":
      case "?":
      case "[":
        run.flushInto(parts);
        parts.push({ type: "glob", value: char, start: position, end: position + 1 });
        position += 1;
        continue;
      case "~":
        if (position === start) {
          position = scanLeadingTilde(reader, position, parts);
          continue;
        }
        if (sawAssignmentCharacter)
          throw unsupportedConstruct(LABELS.tildeAssignment, position, position + 1);
        break;
      case "=":
      case ":":
        sawAssignmentCharacter = true;
        break;
      default:
        break;
    }
    const full = reader.codePointAt(position);
    run.add(full, position);
    position += full.length;
  }
  run.flushInto(parts);
  return { type: "word", parts, start, end: lastEnd(parts, start) };
}

function lastEnd(parts: readonly WordPart[], start: number): number {
  const last = parts[parts.length - 1];
  return last === undefined ? start : last.end;
}

/** `~` alone or before `/` expands to HOME; any other tilde prefix is refused. */
function scanLeadingTilde(reader: SourceReader, position: number, parts: WordPart[]): number {
  const next = reader.peek(position + 1).char;
  if (next === undefined || next === "/" || isMetacharacter(next)) {
    parts.push({ type: "tilde", start: position, end: position + 1 });
    return position + 1;
  }
  throw unsupportedConstruct(LABELS.tildeUser, position, position + 2);
}

function scanSingleQuoted(reader: SourceReader, start: number, parts: WordPart[]): number {
  const close = reader.source.indexOf("'", start + 1);
  if (close < 0) throw malformed("unterminated single quote", start, reader.length);
  const value = reader.source.slice(start + 1, close);
  parts.push({ type: "single-quoted", value, start, end: close + 1 });
  return close + 1;
}

/** Inside `"…"`, a backslash escapes only `$`, `` ` ``, `"`, `\` (and newline). */
const DOUBLE_QUOTE_ESCAPABLE = new Set(["$", "`", '"', "\\"]);

function scanDoubleQuoted(reader: SourceReader, start: number, parts: WordPart[]): number {
  const inner: (QuotedTextPart | VariablePart)[] = [];
  let text = "";
  let textStart = -1;
  let textEnd = -1;
  const addText = (value: string, at: number, end: number): void => {
    if (textStart < 0) textStart = at;
    text += value;
    textEnd = end;
  };
  const flushText = (): void => {
    if (textStart < 0) return;
    inner.push({ type: "quoted-text", value: text, start: textStart, end: textEnd });
    text = "";
    textStart = -1;
  };
  let position = start + 1;
  for (;;) {
    position = reader.skipContinuations(position);
    const char = reader.source[position];
    if (char === undefined) throw malformed("unterminated double quote", start, reader.length);
    if (char === '"') break;
    if (char === "`") throw dynamicConstruct(LABELS.backticks, position, position + 1);
    if (char === "$") {
      flushText();
      const variable = scanDollar(reader, position, true);
      inner.push(variable);
      position = variable.end;
      continue;
    }
    const next = reader.source[position + 1];
    if (char === "\\" && next !== undefined && DOUBLE_QUOTE_ESCAPABLE.has(next)) {
      addText(next, position, position + 2);
      position += 2;
      continue;
    }
    addText(char, position, position + 1);
    position += 1;
  }
  flushText();
  const part: DoubleQuotedPart = { type: "double-quoted", parts: inner, start, end: position + 1 };
  parts.push(part);
  return position + 1;
}
