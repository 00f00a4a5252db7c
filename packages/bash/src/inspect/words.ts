/**
 * Walks a word the inventory keeps in raw form: substitutions and arithmetic become
 * constructs of the current level (substitutions with a nested inspection), and what
 * cannot be projected without running it fails closed (reference §7.2).
 */
import type {
  ArithmeticExpansion,
  CommandSubstitution,
  ParameterExpansion,
  Word,
  WordPart,
} from "../parse/ast-word.js";
import { quoteSource, ShellInspectionError } from "./inspection-error.js";
import { type InspectionLevel, textOf } from "./level.js";
import { statefulArithmetic } from "./state-free-arithmetic.js";
import { WARNINGS } from "./warnings.js";

export interface WordContext {
  /** Unquoted expansions here are word-split and globbed (argv, `for` values). */
  readonly splits: boolean;
}

function fail(level: InspectionLevel, part: WordPart, what: string): never {
  throw new ShellInspectionError(`${what} ${quoteSource(textOf(level, part))}`);
}

function checkArithmeticText(
  level: InspectionLevel,
  owner: WordPart,
  what: string,
  parts: readonly WordPart[],
): void {
  const reason = statefulArithmetic(parts);
  if (reason === null) return;
  throw new ShellInspectionError(`${what} ${reason}: ${quoteSource(textOf(level, owner))}`);
}

/** Parameter-expansion operands must not hold command syntax; their own expansions are checked. */
function checkOperand(
  level: InspectionLevel,
  owner: ParameterExpansion,
  parts: readonly WordPart[],
) {
  for (const part of parts) {
    switch (part.type) {
      case "ParameterExpansion":
        checkParameter(level, part);
        break;
      case "DoubleQuoted":
      case "LocaleQuoted":
      case "ExtGlob":
        checkOperand(level, owner, part.parts);
        break;
      case "CommandSubstitution":
      case "ArithmeticExpansion":
      case "ProcessSubstitution":
        fail(level, owner, "parameter expansion with nested command syntax:");
        break;
      default:
        break;
    }
  }
}

function checkParameter(level: InspectionLevel, part: ParameterExpansion): void {
  if (part.indirect) fail(level, part, "indirect expansion names its variable at run time:");
  const index = part.index;
  if (index !== null) {
    const raw = textOf(level, index).trim();
    if (raw !== "@" && raw !== "*") checkArithmeticText(level, part, "array index", index.parts);
  }
  const operation = part.operation;
  if (operation === null) return;
  switch (operation.kind) {
    case "transform":
      if (operation.operator === "P")
        fail(level, part, "the prompt transform `@P` can run command substitutions:");
      return;
    case "substring":
      checkArithmeticText(level, part, "substring offset", operation.offset.parts);
      if (operation.length !== null)
        checkArithmeticText(level, part, "substring length", operation.length.parts);
      return;
    case "default":
      checkOperand(level, part, operation.word.parts);
      return;
    case "removePrefix":
    case "removeSuffix":
      checkOperand(level, part, operation.pattern.parts);
      return;
    case "replace":
      checkOperand(level, part, operation.pattern.parts);
      if (operation.replacement !== null) checkOperand(level, part, operation.replacement.parts);
      return;
    case "case":
      if (operation.pattern !== null) checkOperand(level, part, operation.pattern.parts);
      return;
    case "invalid":
      fail(level, part, "bad substitution:");
  }
}

function substitution(
  level: InspectionLevel,
  part: CommandSubstitution,
  quoted: boolean,
  context: WordContext,
): void {
  const opening = part.backquote ? 1 : 2;
  const body = level.input.slice(part.start + opening, part.end - 1);
  const inspection = level.nested(part.script, body);
  level.constructs.push({
    start: part.start,
    construct: {
      kind: part.backquote ? "backquote_substitution" : "command_substitution",
      source: textOf(level, part),
      body,
      quoted,
      inspection,
    },
  });
  level.warnings.add(WARNINGS.substitution);
  if (!quoted && context.splits) level.warnings.add(WARNINGS.unquotedSubstitution);
}

function arithmetic(level: InspectionLevel, part: ArithmeticExpansion, quoted: boolean): void {
  checkArithmeticText(level, part, "arithmetic", part.expression.parts);
  level.constructs.push({
    start: part.start,
    construct: {
      kind: "arithmetic_expansion",
      source: textOf(level, part),
      body: textOf(level, part.expression),
      quoted,
      inspection: null,
    },
  });
}

function walkParts(
  level: InspectionLevel,
  parts: readonly WordPart[],
  quoted: boolean,
  context: WordContext,
): void {
  for (const part of parts) {
    switch (part.type) {
      case "DoubleQuoted":
      case "LocaleQuoted":
        walkParts(level, part.parts, true, context);
        break;
      case "ExtGlob":
        walkParts(level, part.parts, quoted, context);
        break;
      case "ParameterExpansion":
        checkParameter(level, part);
        break;
      case "CommandSubstitution":
        substitution(level, part, quoted, context);
        break;
      case "ArithmeticExpansion":
        arithmetic(level, part, quoted);
        break;
      case "ProcessSubstitution":
        fail(level, part, "process substitution is not supported by inspection:");
        break;
      default:
        break;
    }
  }
}

/** Collects the word's constructs into `level`; throws when the word fails closed. */
export function inspectWord(level: InspectionLevel, word: Word, context: WordContext): void {
  walkParts(level, word.parts, false, context);
}

/** An assignment's subscript (`a[i]=x`) is arithmetic like any other array index. */
export function inspectSubscript(level: InspectionLevel, index: Word): void {
  const raw = textOf(level, index).trim();
  if (raw === "@" || raw === "*") return;
  const reason = statefulArithmetic(index.parts);
  if (reason !== null)
    throw new ShellInspectionError(`array index ${reason}: ${quoteSource(textOf(level, index))}`);
}
