/**
 * `inspectShell(source)`: the versioned, parse-only inventory of a bash script
 * (reference §7) for approval screens. It never expands or runs anything: it reads
 * the parser's AST, whose exact offsets give every `source` field. Where the script
 * cannot be projected exactly without running it, it fails closed with a
 * `ShellInspectionError` instead of returning a partial inventory.
 */
import type { Command, ForCommand, List, Redirect, Script } from "../parse/ast-command.js";
import { parseBash } from "../parse/parse-bash.js";
import { quoteSource, ShellInspectionError } from "./inspection-error.js";
import { type InspectionLevel, textOf } from "./level.js";
import { inspectStage } from "./stage.js";
import {
  MAX_INSPECTION_DEPTH,
  MAX_INSPECTION_SOURCE_BYTES,
  SHELL_INSPECTION_SCHEMA_VERSION,
  type ShellInspection,
} from "./types.js";
import { forLoopWarning, WARNINGS } from "./warnings.js";
import { inspectWord } from "./words.js";

const COMPOUND_NAMES: Record<string, string> = {
  BraceGroup: "a `{ }` group",
  Subshell: "a `( )` subshell",
  If: "`if`",
  While: "a `while`/`until` loop",
  ArithmeticFor: "an arithmetic `for ((…))` loop",
  Select: "`select`",
  Case: "`case`",
  Conditional: "`[[ ]]`",
  ArithmeticCommand: "`(( ))`",
};

function unsupported(level: InspectionLevel, what: string, span: { start: number; end: number }) {
  return new ShellInspectionError(
    `${what} is not supported by inspection: ${quoteSource(textOf(level, span))}`,
  );
}

function inspectFor(level: InspectionLevel, loop: ForCommand, redirects: readonly Redirect[]) {
  if (redirects.length > 0) throw unsupported(level, "a redirection on a `for` loop", loop);
  for (const word of loop.words ?? []) inspectWord(level, word, { splits: true });
  level.warnings.add(forLoopWarning(loop.variable.name));
  inspectList(level, loop.body);
}

function inspectCommand(level: InspectionLevel, command: Command): void {
  if (command.type === "SimpleCommand") {
    level.commands.push(inspectStage(level, command));
    return;
  }
  if (command.type === "FunctionDefinition")
    throw unsupported(level, "a function definition", command);
  const body = command.body;
  if (body.type === "For") {
    inspectFor(level, body, command.redirects);
    return;
  }
  throw unsupported(
    level,
    `the compound command ${COMPOUND_NAMES[body.type] ?? body.type}`,
    command,
  );
}

function inspectList(level: InspectionLevel, list: List): void {
  for (const statement of list.statements) {
    if (statement.background) level.warnings.add(WARNINGS.background);
    const andOr = statement.andOr;
    if (andOr.operators.length > 0) level.warnings.add(WARNINGS.andOr);
    for (const pipeline of andOr.pipelines) {
      if (pipeline.negated) level.warnings.add(WARNINGS.negation);
      if (pipeline.timed !== null) level.warnings.add(WARNINGS.time);
      if (pipeline.commands.length > 1) level.warnings.add(WARNINGS.pipeline);
      for (const command of pipeline.commands) inspectCommand(level, command);
    }
  }
}

function inspectScript(
  input: string,
  script: Script,
  body: string,
  depth: number,
): ShellInspection {
  if (depth > MAX_INSPECTION_DEPTH)
    throw new ShellInspectionError(
      `substitutions are nested deeper than ${MAX_INSPECTION_DEPTH} levels`,
    );
  const level: InspectionLevel = {
    input,
    depth,
    commands: [],
    constructs: [],
    warnings: new Set(),
    nested: (inner, innerBody) => inspectScript(input, inner, innerBody, depth + 1),
  };
  inspectList(level, script.body);
  const constructs = [...level.constructs]
    .sort((left, right) => left.start - right.start)
    .map((entry) => entry.construct);
  return {
    schema_version: SHELL_INSPECTION_SCHEMA_VERSION,
    source: body,
    commands: level.commands,
    constructs,
    warnings: [...level.warnings],
  };
}

/**
 * The inventory of `source`, or a thrown `ShellInspectionError` (one message) when it
 * fails closed. Pure: nothing is expanded, resolved or run.
 */
export function inspectShell(source: string): ShellInspection {
  if (typeof source !== "string") throw new ShellInspectionError("the source must be a string");
  if (
    source.length > MAX_INSPECTION_SOURCE_BYTES ||
    new TextEncoder().encode(source).length > MAX_INSPECTION_SOURCE_BYTES
  )
    throw new ShellInspectionError(
      `the source is longer than ${MAX_INSPECTION_SOURCE_BYTES} bytes, the most inspection reads`,
    );
  const parsed = parseBash(source);
  if (!parsed.ok)
    throw new ShellInspectionError(
      `malformed syntax at line ${parsed.error.line}: ${parsed.error.message}`,
    );
  return inspectScript(source, parsed.script, source, 0);
}
