import { expect } from "vitest";
import {
  type Command,
  type Compound,
  type CompoundCommand,
  parseBash,
  type Script,
  type SimpleCommand,
  type Span,
  type Word,
} from "../../src/index.js";

export function parseOk(source: string): Script {
  const result = parseBash(source);
  if (!result.ok)
    throw new Error(`expected ${JSON.stringify(source)} to parse: ${result.error.message}`);
  return result.script;
}

/** The source text of a node. */
export function text(source: string, node: Span): string {
  return source.slice(node.start, node.end);
}

export function commands(script: Script): Command[] {
  return script.body.statements.flatMap((statement) =>
    statement.andOr.pipelines.flatMap((pipeline) => [...pipeline.commands]),
  );
}

export function onlyCommand(source: string): Command {
  const all = commands(parseOk(source));
  expect(all).toHaveLength(1);
  return all[0] as Command;
}

export function simple(source: string): SimpleCommand {
  const command = onlyCommand(source);
  if (command.type !== "SimpleCommand") throw new Error(`not a simple command: ${command.type}`);
  return command;
}

export function compound(source: string): Compound {
  const command = onlyCommand(source) as CompoundCommand;
  expect(command.type).toBe("CompoundCommand");
  return command.body;
}

/** The words of a simple command as source text. */
export function wordTexts(source: string, command: SimpleCommand): string[] {
  return command.words.map((word) => text(source, word));
}

/** The parts of the only argument of `echo <word>`. */
export function argument(word: string): { source: string; word: Word } {
  const source = `echo ${word}`;
  const command = simple(source);
  const second = command.words[1];
  if (second?.type !== "Word") throw new Error("no argument word");
  return { source, word: second };
}
