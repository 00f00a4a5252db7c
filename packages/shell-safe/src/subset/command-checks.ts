import { BASH_RESERVED_WORDS } from "@agent-bridle/core";
import type { Command, Word } from "./ast.js";
import { isNameStart } from "./characters.js";
import { STATEFUL_BUILTINS } from "./command-names.js";
import { builtinLabel, keywordLabel, LABELS } from "./labels.js";
import { malformed, unsupportedConstruct } from "./refusal.js";
import { isGlobWord, literalValue, unquotedText } from "./word-value.js";

/**
 * Checks on the command word (run as soon as it is read, before later tokens) that bash reads as syntax or shell state rather than a
 * program: reserved words, assignment prefixes (`A=1 cmd`) and stateful builtins.
 */
export function checkProgramWord(program: Word): void {
  const text = unquotedText(program);
  if (text !== null && BASH_RESERVED_WORDS.has(text)) {
    throw unsupportedConstruct(keywordLabel(text), program.start, program.end);
  }
  if (isAssignmentShaped(program)) {
    throw unsupportedConstruct(LABELS.assignment, program.start, program.end);
  }
  const name = literalValue(program);
  if (name === "") throw malformed("empty command name", program.start, program.end);
  if (name !== null && STATEFUL_BUILTINS.has(name)) {
    throw unsupportedConstruct(builtinLabel(name), program.start, program.end);
  }
}

/** Checks that need the whole command (the printf builtin's options). */
export function checkCommandWords(command: Command): void {
  const program = command.words[0];
  if (program !== undefined && literalValue(program) === "printf")
    checkPrintfOptions(command.words[1]);
}

/** Starts with an unquoted name character and has an unquoted `=`: bash may assign. */
function isAssignmentShaped(word: Word): boolean {
  const first = word.parts[0];
  if (first?.type !== "literal" || !isNameStart(first.value[0])) return false;
  return word.parts.some((part) => part.type === "literal" && part.value.includes("="));
}

/** The printf builtin takes options (`-v NAME` assigns a variable): refuse any. */
function checkPrintfOptions(format: Word | undefined): void {
  if (format === undefined) return;
  const value = isGlobWord(format) ? null : literalValue(format);
  if (value === null || (value.startsWith("-") && value !== "--")) {
    throw unsupportedConstruct(
      builtinLabel("printf"),
      format.start,
      format.end,
      "the first argument of `printf` must be a plain format; its options (`-v`) assign shell variables",
    );
  }
}
