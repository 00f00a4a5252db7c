import type { WordPart as BashPart, Word as BashWord } from "@agent-bridle/bash";
import type { DoubleQuotedPart, QuotedTextPart, VariablePart, Word, WordPart } from "./ast.js";
import { isMetacharacter, isNameChar, isNameStart } from "./characters.js";
import { LABELS } from "./labels.js";
import { dynamicConstruct, malformed, unsupportedConstruct } from "./refusal.js";
import { skipContinuations } from "./source-text.js";

/**
 * One word of bash's AST as a word of the subset, or a refusal signal: only unquoted
 * literal text, `\x`, `'…'`, `"…"` holding text and `$NAME`/`${NAME}`, `$NAME`/`${NAME}`
 * unquoted, a leading `~` alone or before `/`, and `*`, `?`, `[` are admitted. Every other
 * part (substitutions, arithmetic, `$'…'`, `$"…"`, extglob groups, parameter operators,
 * positional and special parameters) is refused with its label, in source order.
 */
export function subsetWord(source: string, word: BashWord, assignmentValue = false): Word {
  const parts: WordPart[] = [];
  const run = new LiteralRun();
  // In an assignment's value bash expands `~` after `=` and `:`, so none is admitted.
  let sawAssignmentCharacter = assignmentValue;
  for (const part of word.parts) {
    if (part.type !== "Literal") run.flushInto(parts);
    switch (part.type) {
      case "Literal":
        for (const { char, at } of characters(source, part.start, part.value)) {
          if (char === "*" || char === "?" || char === "[") {
            run.flushInto(parts);
            parts.push({ type: "glob", value: char, start: at, end: at + 1 });
            continue;
          }
          if (char === "$") throw bareDollar(source, at, false);
          if (char === "\\") throw malformed("trailing backslash", at, at + 1);
          if (char === "~") {
            if (at === word.start && !assignmentValue) {
              run.flushInto(parts);
              parts.push(leadingTilde(source, at));
              continue;
            }
            if (sawAssignmentCharacter)
              throw unsupportedConstruct(LABELS.tildeAssignment, at, at + 1);
          }
          if (char === "=" || char === ":") sawAssignmentCharacter = true;
          run.add(char, at);
        }
        break;
      case "Escaped":
        parts.push({ type: "escaped", value: part.value, start: part.start, end: part.end });
        break;
      case "SingleQuoted":
        parts.push({ type: "single-quoted", value: part.value, start: part.start, end: part.end });
        break;
      case "DoubleQuoted":
        parts.push(doubleQuoted(source, part.parts, part.start, part.end));
        break;
      default:
        parts.push(variableOrRefusal(source, part, false));
    }
  }
  run.flushInto(parts);
  return { type: "word", parts, start: word.start, end: parts.at(-1)?.end ?? word.start };
}

function doubleQuoted(
  source: string,
  inner: readonly BashPart[],
  start: number,
  end: number,
): DoubleQuotedPart {
  const parts: (QuotedTextPart | VariablePart)[] = [];
  let text: { value: string; start: number; end: number } | null = null;
  const flush = (): void => {
    if (text !== null) parts.push({ type: "quoted-text", ...text });
    text = null;
  };
  for (const part of inner) {
    if (part.type === "Literal" || part.type === "Escaped") {
      if (part.type === "Literal") {
        const dollar = part.value.indexOf("$");
        if (dollar >= 0) {
          const at = [...characters(source, part.start, part.value)][dollar]?.at ?? part.start;
          throw bareDollar(source, at, true);
        }
      }
      if (text === null) text = { value: part.value, start: part.start, end: part.end };
      else text = { value: text.value + part.value, start: text.start, end: part.end };
      continue;
    }
    flush();
    parts.push(variableOrRefusal(source, part, true));
  }
  flush();
  return { type: "double-quoted", parts, start, end };
}

/** `$NAME` or `${NAME}`; any other expansion is refused with its label. */
function variableOrRefusal(source: string, part: BashPart, quoted: boolean): VariablePart {
  switch (part.type) {
    case "ParameterExpansion":
      return variable(source, part, quoted);
    case "CommandSubstitution":
      if (part.backquote) throw dynamicConstruct(LABELS.backticks, part.start, part.start + 1);
      throw dynamicConstruct(
        LABELS.commandSubstitution,
        part.start,
        afterDollar(source, part.start),
      );
    case "ArithmeticExpansion": {
      const open = afterDollar(source, part.start);
      if (part.legacy) throw unsupportedConstruct(LABELS.bareDollar, part.start, open);
      throw dynamicConstruct(
        LABELS.arithmeticExpansion,
        part.start,
        skipContinuations(source, open) + 1,
      );
    }
    case "ProcessSubstitution":
      throw dynamicConstruct(LABELS.processSubstitution, part.start, part.start + 2);
    case "ExtGlob": {
      const open = source.indexOf("(", part.start);
      throw dynamicConstruct(LABELS.subshell, open, open + 1);
    }
    case "AnsiCQuoted":
    case "LocaleQuoted":
      throw unsupportedConstruct(LABELS.bareDollar, part.start, afterDollar(source, part.start));
    default:
      // Literal, Escaped and quotes are handled by the callers; anything new is refused.
      throw unsupportedConstruct(LABELS.bareDollar, part.start, part.end);
  }
}

function variable(
  source: string,
  part: BashPart & { type: "ParameterExpansion" },
  quoted: boolean,
): VariablePart {
  const plain =
    isName(part.parameter) &&
    part.index === null &&
    !part.length &&
    !part.indirect &&
    part.names === null &&
    part.operation === null;
  if (!part.braced) {
    if (!isNameStart(part.parameter[0])) throw bareDollar(source, part.start, quoted);
    const follower = skipContinuations(source, part.end);
    const next = source[follower];
    if (next !== undefined && next.charCodeAt(0) >= 0x80) {
      throw unsupportedConstruct(
        LABELS.variableName,
        part.start,
        follower + 1,
        "a name followed directly by a non-ASCII character; use braces around the name",
      );
    }
    return { type: "variable", name: part.parameter, braced: false, quoted, ...span(part) };
  }
  if (plain) return { type: "variable", name: part.parameter, braced: true, quoted, ...span(part) };
  // The first character of `${…}` that is not part of a plain name, as the old scanner said.
  let at = skipContinuations(source, afterDollar(source, part.start));
  let first = true;
  while (at < part.end) {
    const char = source[at];
    if (char === "}" || !(first ? isNameStart(char) : isNameChar(char))) break;
    first = false;
    at = skipContinuations(source, at + 1);
  }
  throw unsupportedConstruct(LABELS.variableName, part.start, at + 1);
}

function span(part: { readonly start: number; readonly end: number }) {
  return { start: part.start, end: part.end };
}

function isName(text: string): boolean {
  if (!isNameStart(text[0])) return false;
  for (const char of text) if (!isNameChar(char)) return false;
  return true;
}

/** The offset just past the character after `$` at `dollar` (continuations skipped). */
function afterDollar(source: string, dollar: number): number {
  return skipContinuations(source, dollar + 1) + 1;
}

function bareDollar(source: string, at: number, quoted: boolean) {
  const next = skipContinuations(source, at + 1);
  const char = source[next];
  const ends = char === undefined || isMetacharacter(char) || (quoted && char === '"');
  return unsupportedConstruct(LABELS.bareDollar, at, ends ? at + 1 : next + 1);
}

function leadingTilde(source: string, at: number): WordPart {
  const next = skipContinuations(source, at + 1);
  const char = source[next];
  if (char === undefined || char === "/" || isMetacharacter(char)) {
    return { type: "tilde", start: at, end: at + 1 };
  }
  throw unsupportedConstruct(LABELS.tildeUser, at, at + 2);
}

/** The characters of a literal with their source offsets (continuations skipped). */
function* characters(source: string, start: number, value: string) {
  let at = start;
  for (const char of value) {
    at = skipContinuations(source, at);
    yield { char, at };
    at += char.length;
  }
}

/** A run of unquoted literal characters, one part (continuations inside it removed). */
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
