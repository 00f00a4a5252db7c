/** Here-document bodies, read in order after the newline that ends their command line. */
import type { Heredoc } from "./ast-command.js";
import type { Word, WordPart } from "./ast-word.js";
import type { ParserState, PendingHeredoc } from "./parser-state.js";
import { scanParts } from "./scan-parts.js";

const NO_FLAGS = { glob: false, brace: false, tilde: false, quoted: false } as const;

/** The delimiter after quote removal (expansions stay as written, like bash). */
export function delimiterText(source: string, parts: readonly WordPart[]): string {
  let text = "";
  for (const part of parts) {
    if (
      part.type === "Literal" ||
      part.type === "Escaped" ||
      part.type === "SingleQuoted" ||
      part.type === "AnsiCQuoted"
    ) {
      text += part.value;
    } else if (part.type === "DoubleQuoted" || part.type === "LocaleQuoted") {
      text += delimiterText(source, part.parts);
    } else {
      text += source.slice(part.start, part.end);
    }
  }
  return text;
}

function stripLeadingTabs(line: string): string {
  let index = 0;
  while (line[index] === "\t") index += 1;
  return line.slice(index);
}

/** Literal lines of a quoted body (tabs stripped for `<<-`). */
function literalBody(
  state: ParserState,
  start: number,
  end: number,
  stripTabs: boolean,
): WordPart[] {
  if (start === end) return [];
  if (!stripTabs) return [{ type: "Literal", value: state.source.slice(start, end), start, end }];
  const parts: WordPart[] = [];
  let lineStart = start;
  while (lineStart < end) {
    const newline = state.source.indexOf("\n", lineStart);
    const lineEnd = newline < 0 || newline >= end ? end : newline + 1;
    let textStart = lineStart;
    while (state.source[textStart] === "\t" && textStart < lineEnd) textStart += 1;
    if (textStart < lineEnd) {
      parts.push({
        type: "Literal",
        value: state.source.slice(textStart, lineEnd),
        start: textStart,
        end: lineEnd,
      });
    }
    lineStart = lineEnd;
  }
  return parts;
}

function readBody(state: ParserState, pending: PendingHeredoc): Heredoc {
  const start = state.pos;
  const source = state.source;
  let lineStart = start;
  let bodyEnd = source.length;
  let after = source.length;
  while (lineStart < source.length) {
    const newline = source.indexOf("\n", lineStart);
    const lineEnd = newline < 0 ? source.length : newline;
    const line = source.slice(lineStart, lineEnd);
    if ((pending.stripTabs ? stripLeadingTabs(line) : line) === pending.delimiter) {
      bodyEnd = lineStart;
      after = newline < 0 ? source.length : newline + 1;
      break;
    }
    lineStart = newline < 0 ? source.length : newline + 1;
  }
  let parts: WordPart[];
  if (pending.quoted) {
    parts = literalBody(state, start, bodyEnd, pending.stripTabs);
  } else {
    const saved = state.pendingHeredocs.splice(0);
    parts = scanParts(state, {
      quotes: "none",
      escapes: "heredoc",
      inDouble: false,
      stop: () => false,
      limit: bodyEnd,
      stripTabs: pending.stripTabs,
    }).parts;
    state.pendingHeredocs.push(...saved);
  }
  state.pos = after;
  const body: Word = { type: "Word", parts, flags: NO_FLAGS, start, end: bodyEnd };
  return {
    type: "Heredoc",
    delimiter: pending.delimiter,
    quoted: pending.quoted,
    stripTabs: pending.stripTabs,
    body,
    start,
    end: bodyEnd,
  };
}

/** Read every pending body from `state.pos` (just after a newline), in the order the operators appeared. */
export function readPendingHeredocs(state: ParserState): void {
  while (state.pendingHeredocs.length > 0) {
    const pending = state.pendingHeredocs.shift() as PendingHeredoc;
    pending.redirect.heredoc = readBody(state, pending);
  }
}
