/**
 * The one word-part scanner behind every word context: command words, double quotes,
 * here-document bodies, `${…}` operands, arithmetic text, `[[ =~ ]]` regexes. A context
 * is a `ScanConfig`: which quotes and escapes apply and where the word stops.
 */

import { decodeAnsiC } from "../text/ansi-c.js";
import type { WordFlags, WordPart } from "./ast-word.js";
import { scanBackquote } from "./backquote.js";
import { scanDollar } from "./dollar.js";
import type { ParserState } from "./parser-state.js";
import { unmatched } from "./syntax-failure.js";
import { computeWordFlags } from "./word-flags.js";

export interface ScanConfig {
  /** `all`: `'…'` `"…"` `$'…'` `$"…"`; `double`: only `"…"`; `none`: quotes are text. */
  readonly quotes: "all" | "double" | "none";
  /** What a backslash escapes: any character, or only the double-quote / here-document set. */
  readonly escapes: "any" | "double" | "heredoc";
  /** Whether the scanner is inside double quotes (for backquote and `${…}` rules). */
  readonly inDouble: boolean;
  /** Checked before each character; `depth` counts `nest` pairs seen so far. */
  readonly stop: (state: ParserState, depth: number) => boolean;
  readonly nest?: { readonly open: string; readonly close: string };
  /** Command-word context: process substitution and extglob groups. */
  readonly command?: boolean;
  /** Scan no further than this offset (here-document bodies). */
  readonly limit?: number;
  /** `<<-`: leading tabs of each line are not part of the body. */
  readonly stripTabs?: boolean;
  /**
   * `'…'` is text, but `stop` and `nest` are not checked inside it: bash finds the end of
   * a `${x-…}` inside double quotes past single-quoted braces (`"${x:-'}'}"` is `'}'`),
   * and then expands the quoted text like the rest.
   */
  readonly singleQuoteSpans?: boolean;
}

export interface ScanResult {
  readonly parts: WordPart[];
  readonly flags: WordFlags;
}

const EXTGLOB_OPERATORS = "?*+@!";

class PartCollector {
  readonly parts: WordPart[] = [];
  literal = "";
  literalStart = -1;
  shape = "";
  quoted = false;
  extglob = false;

  add(value: string, at: number, shape: string): void {
    if (this.literalStart < 0) this.literalStart = at;
    this.literal += value;
    this.shape += shape;
  }

  flush(end: number): void {
    if (this.literalStart < 0) return;
    this.parts.push({ type: "Literal", value: this.literal, start: this.literalStart, end });
    this.literal = "";
    this.literalStart = -1;
  }

  push(part: WordPart, quoted: boolean): void {
    this.parts.push(part);
    this.shape += "\0";
    if (quoted) this.quoted = true;
  }
}

function escapable(mode: ScanConfig["escapes"], char: string): boolean {
  if (mode === "any") return true;
  if (char === "$" || char === "`" || char === "\\") return true;
  return mode === "double" && char === '"';
}

export const DOUBLE_QUOTED: ScanConfig = {
  quotes: "none",
  escapes: "double",
  inDouble: true,
  stop: (state) => state.char() === '"',
};

function scanSingleQuoted(state: ParserState): WordPart {
  const start = state.pos;
  const close = state.source.indexOf("'", start + 1);
  if (close < 0) throw unmatched("'", start);
  state.pos = close + 1;
  return {
    type: "SingleQuoted",
    value: state.source.slice(start + 1, close),
    start,
    end: state.pos,
  };
}

function scanAnsiC(state: ParserState): WordPart {
  const start = state.pos;
  let index = start + 2;
  while (index < state.source.length && state.source[index] !== "'") {
    index += state.source[index] === "\\" ? 2 : 1;
  }
  if (index >= state.source.length) throw unmatched("'", start);
  state.pos = index + 1;
  const value = decodeAnsiC(state.source.slice(start + 2, index));
  return { type: "AnsiCQuoted", value, start, end: state.pos };
}

function scanDoubleQuoted(state: ParserState, locale: boolean): WordPart {
  const start = state.pos;
  state.pos += locale ? 2 : 1;
  const { parts } = scanParts(state, DOUBLE_QUOTED);
  if (state.char() !== '"') throw unmatched('"', start);
  state.pos += 1;
  return { type: locale ? "LocaleQuoted" : "DoubleQuoted", parts, start, end: state.pos };
}

function scanProcessSubstitution(state: ParserState): WordPart {
  const start = state.pos;
  const direction = state.char() === "<" ? "<" : ">";
  state.pos += 2;
  state.enter();
  const script = state.parseNested(state);
  state.leave();
  return { type: "ProcessSubstitution", direction, script, start, end: state.pos };
}

const EXTGLOB_BODY: ScanConfig = {
  quotes: "all",
  escapes: "any",
  inDouble: false,
  nest: { open: "(", close: ")" },
  stop: (state, depth) => depth === 0 && state.char() === ")",
};

function scanExtGlob(state: ParserState, collector: PartCollector): void {
  const operator = collector.literal.slice(-1) as "?" | "*" | "+" | "@" | "!";
  const start = state.pos - 1;
  collector.literal = collector.literal.slice(0, -1);
  collector.shape = collector.shape.slice(0, -1);
  if (collector.literal === "") collector.literalStart = -1;
  collector.flush(start);
  state.pos += 1;
  state.enter();
  const { parts } = scanParts(state, EXTGLOB_BODY);
  state.leave();
  if (state.char() !== ")") throw unmatched(")", start);
  state.pos += 1;
  collector.push({ type: "ExtGlob", operator, parts, start, end: state.pos }, false);
  collector.extglob = true;
}

function isExtGlobOpen(state: ParserState, collector: PartCollector): boolean {
  if (state.char() !== "(" || collector.literalStart < 0) return false;
  const last = collector.literal.slice(-1);
  return last !== "" && EXTGLOB_OPERATORS.includes(last) && state.source[state.pos - 1] === last;
}

function skipTabs(state: ParserState, config: ScanConfig, collector: PartCollector): void {
  if (!config.stripTabs) return;
  if (state.pos !== 0 && state.source[state.pos - 1] !== "\n") return;
  if (state.char() !== "\t") return;
  // After a line continuation the line goes on: bash strips the tabs of a line it reads,
  // and the continued text is part of the line before (`\t\ta\\<newline>\t\tb` is `a\t\tb`).
  let backslashes = 0;
  while (state.source[state.pos - 2 - backslashes] === "\\") backslashes += 1;
  if (backslashes % 2 === 1) return;
  collector.flush(state.pos);
  while (state.char() === "\t") state.pos += 1;
}

/** Scan word parts from `state.pos` until `config.stop` (or the limit); `pos` ends on the stopper. */
export function scanParts(state: ParserState, config: ScanConfig): ScanResult {
  const collector = new PartCollector();
  const limit = config.limit ?? state.source.length;
  let depth = 0;
  let inSingle = false;
  skipTabs(state, config, collector);
  while (state.pos < limit) {
    const char = state.char() as string;
    const next = state.char(state.pos + 1);
    if (char === "\\" && next === "\n") {
      collector.flush(state.pos);
      state.pos += 2;
      skipTabs(state, config, collector);
      continue;
    }
    if (config.command && (char === "<" || char === ">") && next === "(") {
      collector.flush(state.pos);
      collector.push(scanProcessSubstitution(state), false);
      continue;
    }
    if (config.command && isExtGlobOpen(state, collector)) {
      scanExtGlob(state, collector);
      continue;
    }
    if (!inSingle && config.stop(state, depth)) break;
    const start = state.pos;
    if (inSingle && (char === '"' || char === "`")) {
      // Inside a skipped single-quoted span, quotes and backquotes are text.
      state.pos += 1;
      collector.add(char, start, char);
      continue;
    }
    if (char === "'" && config.quotes === "all") {
      collector.flush(start);
      collector.push(scanSingleQuoted(state), true);
    } else if (char === '"' && config.quotes !== "none") {
      collector.flush(start);
      collector.push(scanDoubleQuoted(state, false), true);
    } else if (char === "$" && next === "'" && config.quotes === "all") {
      collector.flush(start);
      collector.push(scanAnsiC(state), true);
    } else if (char === "$" && next === '"' && config.quotes !== "none") {
      collector.flush(start);
      collector.push(scanDoubleQuoted(state, true), true);
    } else if (char === "\\" && next !== undefined && escapable(config.escapes, next)) {
      collector.flush(start);
      state.pos += 2;
      collector.push({ type: "Escaped", value: next, start, end: state.pos }, true);
    } else if (char === "$") {
      collector.flush(start);
      const part = scanDollar(state, config.inDouble);
      if (part === null) {
        state.pos += 1;
        collector.add("$", start, "$");
      } else {
        collector.push(part, false);
      }
    } else if (char === "`") {
      collector.flush(start);
      collector.push(scanBackquote(state, config.inDouble), false);
    } else {
      if (char === "'" && config.singleQuoteSpans) inSingle = !inSingle;
      if (config.nest !== undefined && !inSingle) {
        if (char === config.nest.open) depth += 1;
        else if (char === config.nest.close) depth -= 1;
      }
      state.pos += 1;
      collector.add(char, start, char);
      if (char === "\n") skipTabs(state, config, collector);
    }
  }
  collector.flush(state.pos);
  return {
    parts: collector.parts,
    flags: computeWordFlags(collector.shape, collector.quoted, collector.extglob),
  };
}
