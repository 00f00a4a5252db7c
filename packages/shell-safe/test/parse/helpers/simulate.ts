import type { Command, Pipeline, Script, Word } from "../../../src/index.js";
import { hasQuoting } from "../../../src/index.js";

/**
 * A reference interpreter of the parsed script for the oracle's tiny world: commands
 * are `printf '%s\0' args…`, `true` and `false`; globs never match; variables come
 * from `environment`. It applies bash's rules as the AST states them, so any
 * disagreement with real bash is a parser divergence.
 */
export interface World {
  readonly environment: Readonly<Record<string, string>>;
  readonly home: string;
  readonly cwd: string;
}

export interface Outcome {
  stdout: string;
  files: Record<string, string>;
}

type Destination =
  | { kind: "stdout" }
  | { kind: "pipe" }
  | { kind: "file"; name: string; append: boolean };

export function expandWord(word: Word, world: World): string | null {
  let value = "";
  for (const part of word.parts) {
    if (part.type === "variable") value += world.environment[part.name] ?? "";
    else if (part.type === "tilde") value += world.home;
    else if (part.type === "double-quoted") {
      for (const inner of part.parts) {
        value += inner.type === "variable" ? (world.environment[inner.name] ?? "") : inner.value;
      }
    } else value += part.value;
  }
  return value === "" && !hasQuoting(word) ? null : value;
}

function fileName(path: string, world: World): string {
  const prefix = `${world.cwd}/`;
  if (path.startsWith(prefix)) return path.slice(prefix.length);
  if (path.includes("/")) throw new Error(`oracle world has no path ${path}`);
  return path;
}

function write(outcome: Outcome, destination: Destination, text: string): void {
  if (destination.kind === "stdout") outcome.stdout += text;
  if (destination.kind !== "file") return;
  const before = outcome.files[destination.name] ?? "";
  outcome.files[destination.name] = destination.append
    ? before + text
    : text + before.slice(text.length);
}

/** What bash writes to fd 2 when an input redirection names a missing file (normalised). */
export function missingFileMessage(name: string): string {
  return `<ENOENT ${name}>`;
}

function runCommand(command: Command, last: boolean, world: World, outcome: Outcome): number {
  let stdout: Destination = last ? { kind: "stdout" } : { kind: "pipe" };
  let stderr: Destination = { kind: "pipe" };
  for (const redirection of command.redirections) {
    if (redirection.kind === "duplicate") {
      stderr = stdout;
      continue;
    }
    const name = fileName(expandWord(redirection.target, world) ?? "", world);
    if (redirection.operator === "<") {
      if (outcome.files[name] !== undefined) continue;
      write(outcome, stderr, missingFileMessage(name));
      return 1;
    }
    const append = redirection.operator === ">>";
    if (!append || outcome.files[name] === undefined) outcome.files[name] = "";
    const destination: Destination = { kind: "file", name, append };
    if (redirection.fd === 1) stdout = destination;
    else stderr = destination;
  }
  const argv = command.words
    .map((word) => expandWord(word, world))
    .filter((value) => value !== null);
  const [program, format, ...args] = argv;
  if (program === "true") return 0;
  if (program === "false") return 1;
  if (program !== "printf" || format !== "%s\\0")
    throw new Error(`oracle cannot run ${argv.join(" ")}`);
  write(outcome, stdout, args.length === 0 ? "\0" : args.map((arg) => `${arg}\0`).join(""));
  return 0;
}

function runPipeline(pipeline: Pipeline, world: World, outcome: Outcome): number {
  let status = 0;
  pipeline.stages.forEach((stage, index) => {
    status = runCommand(stage, index === pipeline.stages.length - 1, world, outcome);
  });
  return status;
}

export function simulate(script: Script, world: World): Outcome {
  const outcome: Outcome = { stdout: "", files: { in: "IN" } };
  let status = 0;
  for (const list of script.lists) {
    status = runPipeline(list.head, world, outcome);
    for (const link of list.tail) {
      const run = link.operator.op === "&&" ? status === 0 : status !== 0;
      if (run) status = runPipeline(link.pipeline, world, outcome);
    }
  }
  return outcome;
}
