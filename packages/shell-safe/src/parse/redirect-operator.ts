import type { Span } from "./ast.js";
import { isMetacharacter } from "./characters.js";
import { LABELS } from "./labels.js";
import { dynamicConstruct, unsupportedConstruct } from "./refusal.js";
import type { SourceReader } from "./source-reader.js";

/** A lexed redirection operator: a file redirection awaiting its target, or `2>&1`. */
export type RedirectToken =
  | {
      readonly type: "redirect";
      readonly fd: 0 | 1 | 2;
      readonly explicitFd: boolean;
      readonly operator: "<" | ">" | ">>";
      readonly start: number;
      readonly operatorSpan: Span;
    }
  | { readonly type: "duplicate"; readonly start: number; readonly end: number };

/** An fd prefix as written: the digits and where they start. */
export interface FdPrefix {
  readonly digits: string;
  readonly start: number;
}

/**
 * Lexes the operator at `at` (a `<` or `>`), optionally preceded by an fd prefix.
 * Only `<`, `0<`, `>`, `1>`, `2>`, `>>`, `1>>`, `2>>` and `2>&1` are accepted.
 */
export function scanRedirect(
  reader: SourceReader,
  at: number,
  prefix: FdPrefix | null,
): RedirectToken {
  const start = prefix?.start ?? at;
  const first = reader.source[at];
  const second = reader.peek(at + 1);
  if (first === "<") return scanInput(start, at, second, prefix);
  if (second.char === ">") {
    const third = reader.peek(second.at + 1);
    if (third.char === "&")
      throw unsupportedConstruct(LABELS.outputDuplication, start, third.at + 1);
    return output(start, at, second.at + 1, ">>", prefix);
  }
  if (second.char === "&") return scanDuplication(reader, start, second.at, prefix);
  if (second.char === "|") throw unsupportedConstruct(LABELS.clobber, start, second.at + 1);
  if (second.char === "(") throw dynamicConstruct(LABELS.processSubstitution, start, second.at + 1);
  return output(start, at, at + 1, ">", prefix);
}

function scanInput(
  start: number,
  at: number,
  second: { readonly char: string | undefined; readonly at: number },
  prefix: FdPrefix | null,
): RedirectToken {
  if (second.char === "<") throw unsupportedConstruct(LABELS.heredoc, start, second.at + 1);
  if (second.char === "&")
    throw unsupportedConstruct(LABELS.inputDuplication, start, second.at + 1);
  if (second.char === ">") throw unsupportedConstruct(LABELS.readWrite, start, second.at + 1);
  if (second.char === "(") throw dynamicConstruct(LABELS.processSubstitution, start, second.at + 1);
  if (prefix !== null && prefix.digits !== "0")
    throw unsupportedConstruct(LABELS.fdInput, start, at + 1);
  return {
    type: "redirect",
    fd: 0,
    explicitFd: prefix !== null,
    operator: "<",
    start,
    operatorSpan: { start: at, end: at + 1 },
  };
}

function output(
  start: number,
  at: number,
  end: number,
  operator: ">" | ">>",
  prefix: FdPrefix | null,
): RedirectToken {
  if (prefix !== null && prefix.digits !== "1" && prefix.digits !== "2") {
    throw unsupportedConstruct(LABELS.fdNumber, start, end);
  }
  const fd = prefix?.digits === "2" ? 2 : 1;
  return {
    type: "redirect",
    fd,
    explicitFd: prefix !== null,
    operator,
    start,
    operatorSpan: { start: at, end },
  };
}

/** `>&` at `ampersand`: only the exact `2>&1` (followed by a word boundary) is accepted. */
function scanDuplication(
  reader: SourceReader,
  start: number,
  ampersand: number,
  prefix: FdPrefix | null,
): RedirectToken {
  if (prefix === null) throw unsupportedConstruct(LABELS.outputDuplication, start, ampersand + 1);
  const source = reader.peek(ampersand + 1);
  const after = reader.peek(source.at + 1);
  const boundary = after.char === undefined || isMetacharacter(after.char);
  if (prefix.digits === "2" && source.char === "1" && boundary) {
    return { type: "duplicate", start, end: source.at + 1 };
  }
  throw unsupportedConstruct(LABELS.fdDuplication, start, ampersand + 1);
}
