import type { BashSyntaxError } from "@agent-bridle/bash";
import { BASH_RESERVED_WORDS } from "@agent-bridle/core";
import { keywordLabel, LABELS } from "./labels.js";
import {
  dynamicConstruct,
  malformed,
  type ShellRefusalSignal,
  unsupportedConstruct,
} from "./refusal.js";

const UNTERMINATED: Readonly<Record<string, string>> = {
  "'": "unterminated single quote",
  '"': "unterminated double quote",
  "}": "unterminated `${`",
};

/**
 * A script bash would not parse is malformed (`SHELL_PARSE_ERROR`), except where the token
 * bash stopped at names a construct the subset refuses anyway: `(` and `)` (subshells,
 * function definitions, array values) are dynamic, a reserved word is a control keyword,
 * `&` is a background job. A redirection with no target and an unterminated quote are
 * reported at the operator and the quote, as the subset has always said.
 */
export function syntaxRefusal(source: string, error: BashSyntaxError): ShellRefusalSignal {
  const offset = Math.min(error.offset, source.length);
  const unmatched = /looking for matching `(.)'$/.exec(error.message)?.[1];
  const unterminated = unmatched === undefined ? undefined : UNTERMINATED[unmatched];
  if (unmatched === "`") return dynamicConstruct(LABELS.backticks, offset, offset + 1);
  if (unterminated !== undefined) return malformed(unterminated, offset, source.length);
  const token = /unexpected token `(.*)'$/.exec(error.message)?.[1];
  const operator = redirectionBefore(source, offset);
  if (token === "&" && operator !== null && source.slice(operator.start, offset).endsWith(">>")) {
    return unsupportedConstruct(LABELS.outputDuplication, operator.start, offset + 1);
  }
  if (operator !== null && (token === undefined || !/^[<>(]/.test(token))) {
    return malformed("missing redirection target", operator.start, operator.end);
  }
  if (token === ";;") return malformed("`;;` outside a case statement", offset, offset + 2);
  if (token === "(" || token === ")") return dynamicConstruct(LABELS.subshell, offset, offset + 1);
  if (token === "&") return unsupportedConstruct(LABELS.background, offset, offset + 1);
  if (token !== undefined && BASH_RESERVED_WORDS.has(token)) {
    return unsupportedConstruct(keywordLabel(token), offset, offset + token.length);
  }
  if (/\bcoproc\b/.test(error.message)) {
    return unsupportedConstruct(keywordLabel("coproc"), offset, offset + "coproc".length);
  }
  const width = token === undefined || token === "newline" ? 0 : token.length;
  return malformed(error.message, offset, offset + width);
}

/**
 * The redirection operator (with its fd digits) that ends right before `offset`, with only
 * blanks or a comment between: the operator whose target is missing.
 */
function redirectionBefore(
  source: string,
  offset: number,
): { readonly start: number; readonly end: number } | null {
  const lineStart = source.lastIndexOf("\n", offset - 1) + 1;
  const line = source.slice(lineStart, offset);
  const found = /(\d*)(>>|>|<)[ \t]*(#.*)?$/.exec(line);
  if (found === null) return null;
  const start = lineStart + found.index;
  return { start, end: start + (found[1]?.length ?? 0) + (found[2]?.length ?? 0) };
}
