import type { Redirect as BashRedirect } from "@agent-bridle/bash";
import type { DuplicateRedirection, FileRedirection } from "./ast.js";
import { isMetacharacter } from "./characters.js";
import { LABELS } from "./labels.js";
import { unsupportedConstruct } from "./refusal.js";
import { skipContinuations } from "./source-text.js";

/** An admitted redirection before its target word is read (`2>&1` has none). */
export type SubsetRedirect =
  | { readonly kind: "file"; readonly redirection: Omit<FileRedirection, "target"> }
  | { readonly kind: "duplicate"; readonly redirection: DuplicateRedirection };

/**
 * One redirection of bash's AST as one of the subset's: `<`, `0<`, `>`, `1>`, `2>`, `>>`,
 * `1>>`, `2>>` and the exact `2>&1`; every other operator, descriptor or `{name}` is
 * refused with its label and the span of the operator as written.
 */
export function subsetRedirect(source: string, redirect: BashRedirect): SubsetRedirect {
  const start = redirect.start;
  if (redirect.fdVariable !== null) {
    const operator = source.indexOf(redirect.operator[0] ?? ">", start);
    throw unsupportedConstruct(LABELS.namedFd, start, operator + 1);
  }
  let at = start;
  let digits = "";
  while (/[0-9]/.test(source[at] ?? "")) {
    digits += source[at];
    at = skipContinuations(source, at + 1);
  }
  const prefix = digits === "" ? null : digits;
  const second = skipContinuations(source, at + 1);
  const third = skipContinuations(source, second + 1);
  switch (redirect.operator) {
    case "&>":
    case "&>>":
      throw unsupportedConstruct(LABELS.background, at, second + 1);
    case "<<":
    case "<<-":
    case "<<<":
      throw unsupportedConstruct(LABELS.heredoc, start, second + 1);
    case "<&":
      throw unsupportedConstruct(LABELS.inputDuplication, start, second + 1);
    case "<>":
      throw unsupportedConstruct(LABELS.readWrite, start, second + 1);
    case ">|":
      throw unsupportedConstruct(LABELS.clobber, start, second + 1);
    case ">&":
      return duplication(source, redirect, prefix, second);
    case "<":
      if (prefix !== null && prefix !== "0")
        throw unsupportedConstruct(LABELS.fdInput, start, at + 1);
      return file(redirect, 0, prefix !== null, "<", at, at + 1);
    case ">":
    case ">>": {
      if (redirect.operator === ">>" && source[third] === "&") {
        throw unsupportedConstruct(LABELS.outputDuplication, start, third + 1);
      }
      const end = redirect.operator === ">" ? at + 1 : second + 1;
      if (prefix !== null && prefix !== "1" && prefix !== "2") {
        throw unsupportedConstruct(LABELS.fdNumber, start, end);
      }
      return file(redirect, prefix === "2" ? 2 : 1, prefix !== null, redirect.operator, at, end);
    }
    default:
      throw unsupportedConstruct(LABELS.fdNumber, start, second);
  }
}

function file(
  redirect: BashRedirect,
  fd: 0 | 1 | 2,
  explicitFd: boolean,
  operator: "<" | ">" | ">>",
  at: number,
  end: number,
): SubsetRedirect {
  return {
    kind: "file",
    redirection: {
      type: "redirection",
      kind: "file",
      fd,
      explicitFd,
      operator,
      operatorSpan: { start: at, end },
      start: redirect.start,
      end,
    },
  };
}

/** `>&` (the `&` at `ampersand`): only the exact `2>&1` followed by a word boundary. */
function duplication(
  source: string,
  redirect: BashRedirect,
  prefix: string | null,
  ampersand: number,
): SubsetRedirect {
  const start = redirect.start;
  if (prefix === null) throw unsupportedConstruct(LABELS.outputDuplication, start, ampersand + 1);
  const one = skipContinuations(source, ampersand + 1);
  const after = skipContinuations(source, one + 1);
  const boundary = source[after] === undefined || isMetacharacter(source[after]);
  if (prefix === "2" && source[one] === "1" && boundary) {
    return {
      kind: "duplicate",
      redirection: { type: "redirection", kind: "duplicate", fd: 2, from: 1, start, end: one + 1 },
    };
  }
  throw unsupportedConstruct(LABELS.fdDuplication, start, ampersand + 1);
}
