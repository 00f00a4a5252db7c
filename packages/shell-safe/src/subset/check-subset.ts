import {
  type Command as BashCommand,
  type Pipeline as BashPipeline,
  type Redirect as BashRedirect,
  type Word as BashWord,
  parseBash,
  type SimpleCommand,
} from "@agent-bridle/bash";
import { BASH_RESERVED_WORDS } from "@agent-bridle/core";
import type {
  AndOrLink,
  AndOrList,
  Command,
  Operator,
  Pipeline,
  Redirection,
  Script,
  Word,
} from "./ast.js";
import { checkBraces } from "./brace-check.js";
import { checkCommandWords, checkProgramWord } from "./command-checks.js";
import { checkHiddenCharacters } from "./hidden-characters.js";
import { keywordLabel, LABELS } from "./labels.js";
import { type ParseLimits, type ParseOptions, resolveLimits } from "./limits.js";
import {
  dynamicConstruct,
  limitExceeded,
  malformed,
  type ShellRefusal,
  ShellRefusalSignal,
  unsupportedConstruct,
} from "./refusal.js";
import { operatorAfter, skipBlanksAndComments } from "./source-text.js";
import { subsetRedirect } from "./subset-redirect.js";
import { subsetWord } from "./subset-word.js";
import { syntaxRefusal } from "./syntax-refusal.js";
import { isGlobWord, literalValue } from "./word-value.js";

/**
 * The safe subset as an allow-list walk over `@agent-bridle/bash`'s AST (ADR 0022): the
 * script is parsed by the one bash parser, then every node is either one the subset
 * admits (simple commands of admitted words, `|`, `&&`, `||`, `;`, newlines, `<`, `>`,
 * `>>` on fd 0/1/2 and `2>&1`) or refused with its label. Nothing unrecognised passes.
 *
 * Accepted scripts mean exactly what `bash --norc --noprofile -c` makes of them (after
 * admission expands the flagged variables, tilde and globs); anything else is refused
 * with a reason and the exact span of the first offending construct. Never throws for
 * any input string. Public as `parseScript`.
 *
 * Refusals come in the order the subset has always reported them (its own parser, before
 * ADR 0022): each token is read (its lexical refusals) one token ahead of the checks on
 * the token before it, so the first offending construct from the left is the one named.
 */
export function checkSubset(source: string, options?: ParseOptions): ParseResult {
  const limits = resolveLimits(options);
  try {
    if (source.length > limits.maxSourceLength) {
      throw limitExceeded(
        "source length",
        `the script is longer than ${limits.maxSourceLength} characters`,
        limits.maxSourceLength,
        source.length,
      );
    }
    checkHiddenCharacters(source);
    const parsed = parseBash(source);
    if (!parsed.ok) {
      const refusal = syntaxRefusal(source, parsed.error);
      refuseBeforeSyntaxError(source, parsed.error.offset, limits, refusal);
      throw refusal;
    }
    return { ok: true, script: new SubsetWalk(source, limits).script(parsed.script) };
  } catch (error) {
    if (error instanceof ShellRefusalSignal) return { ok: false, refusal: error.refusal };
    throw error;
  }
}

export type ParseResult =
  | { readonly ok: true; readonly script: Script }
  | { readonly ok: false; readonly refusal: ShellRefusal };

/** At most this many shorter prefixes are parsed to find a refusal before a syntax error. */
const PREFIX_ATTEMPTS = 64;

/**
 * The subset refuses the first construct it meets, so a construct it refuses before the
 * place where bash's syntax fails is the answer, not the syntax error: the longest prefix
 * of whole lines before `offset` that bash parses is walked, then the first token after it
 * is checked (a reserved word or a `(` after the first word opens what the subset refuses).
 * Returns normally when nothing before the syntax error is refused.
 */
function refuseBeforeSyntaxError(
  source: string,
  offset: number,
  limits: ParseLimits,
  refusal: ShellRefusalSignal,
): void {
  // Everything before the token bash stopped at, walked with that token read last: a
  // refusal of that token itself (a `(`, a `&`) comes before the checks of the command
  // it ends, as the subset has always reported it; a grammar error comes after them.
  const before = parseBash(source.slice(0, offset));
  if (before.ok) {
    const lexical = refusal.refusal.code !== "SHELL_PARSE_ERROR" || /`;;`/.test(refusal.message);
    new SubsetWalk(source, limits).walkOnly(before.script, () => {
      if (lexical) throw refusal;
    });
    return;
  }
  let end = source.lastIndexOf("\n", offset - 1) + 1;
  for (let attempt = 0; attempt < PREFIX_ATTEMPTS && end > 0; attempt += 1) {
    const prefix = parseBash(source.slice(0, end));
    if (prefix.ok) {
      if (prefix.script.body.statements.length > 0) {
        new SubsetWalk(source, limits).walkOnly(prefix.script);
      }
      break;
    }
    end = source.lastIndexOf("\n", end - 2) + 1;
  }
  // The commands of the unparsed rest: the subset refused a reserved word or a `(` after
  // the command word as soon as it read one. (A rough split: it only chooses which
  // refusal to report for a script that is refused either way.)
  const separator = /\|\||&&|[|;&\n]/g;
  let from = end;
  while (from < offset) {
    separator.lastIndex = from;
    const next = separator.exec(source);
    const to = next === null ? source.length : next.index;
    refuseCommandStart(source, from, Math.min(to, offset));
    from = next === null ? source.length : to + next[0].length;
  }
}

function refuseCommandStart(source: string, from: number, limit: number): void {
  const at = skipBlanksAndComments(source, from);
  const word = /^[^\s;&|<>()]+/.exec(source.slice(at))?.[0];
  if (word === undefined || at >= limit) return;
  if (BASH_RESERVED_WORDS.has(word)) {
    throw unsupportedConstruct(keywordLabel(word), at, at + word.length);
  }
  const after = skipBlanksAndComments(source, at + word.length);
  if (source[after] === "(" && after < limit) {
    checkProgramWord({
      type: "word",
      parts: [{ type: "literal", value: word, start: at, end: at + word.length }],
      start: at,
      end: at + word.length,
    });
    throw dynamicConstruct(LABELS.subshell, after, after + 1);
  }
}

/** One step of that token order: read it, check before the next is read, check after. */
interface Step {
  readonly read: () => void;
  readonly before?: () => void;
  readonly after?: () => void;
}

class SubsetWalk {
  private commandCount = 0;
  private wordCount = 0;

  constructor(
    private readonly source: string,
    private readonly limits: ParseLimits,
  ) {}

  /** The refusals of `tree` (a prefix of the source), without requiring a whole script. */
  walkOnly(
    tree: { readonly body: { readonly statements: readonly BashStatement[] } },
    last: () => void = () => {},
  ): void {
    const steps: Step[] = [];
    for (const statement of tree.body.statements) this.statementSteps(statement, steps, []);
    steps.push({ read: last });
    run(steps);
  }

  script(tree: { readonly body: { readonly statements: readonly BashStatement[] } }): Script {
    const lists: AndOrList[] = [];
    const steps: Step[] = [];
    for (const statement of tree.body.statements) this.statementSteps(statement, steps, lists);
    steps.push({ read: () => {} });
    run(steps);
    if (lists.length === 0) throw malformed("empty input", 0, this.source.length);
    return {
      type: "script",
      source: this.source,
      lists,
      start: lists[0]?.start ?? 0,
      end: lists.at(-1)?.end ?? 0,
    };
  }

  private statementSteps(statement: BashStatement, steps: Step[], lists: AndOrList[]): void {
    const { andOr } = statement;
    const pipelines: Pipeline[] = [];
    const operators: Operator<"&&" | "||">[] = [];
    andOr.pipelines.forEach((pipeline, index) => {
      if (index > 0) {
        const op = andOr.operators[index - 1] as "&&" | "||";
        const previous = andOr.pipelines[index - 1] as BashPipeline;
        const span = operatorAfter(this.source, previous.end, op);
        steps.push({ read: () => operators.push(operatorOf(op, span, previous.end)) });
      }
      this.pipelineSteps(pipeline, steps, pipelines);
    });
    if (statement.background) {
      const at = operatorAfter(this.source, andOr.end, "&")?.start ?? andOr.end;
      steps.push({
        read: () => {
          throw unsupportedConstruct(LABELS.background, at, at + 1);
        },
      });
    }
    const terminator = this.terminatorAfter(statement.end);
    steps.push({
      read: () => {
        const head = pipelines[0] as Pipeline;
        const tail: AndOrLink[] = operators.map((operator, index) => ({
          operator,
          pipeline: pipelines[index + 1] as Pipeline,
        }));
        const last = pipelines.at(-1) as Pipeline;
        lists.push({
          type: "and-or",
          head,
          tail,
          terminator,
          start: head.start,
          end: terminator?.end ?? last.end,
        });
      },
    });
  }

  /** The `;` or newline that ends a statement, if one does. */
  private terminatorAfter(end: number): Operator<";" | "\n"> | null {
    const at = skipBlanksAndComments(this.source, end);
    const char = this.source[at];
    if (char !== ";" && char !== "\n") return null;
    return { type: "operator", op: char, start: at, end: at + 1 };
  }

  private pipelineSteps(pipeline: BashPipeline, steps: Step[], out: Pipeline[]): void {
    if (pipeline.negated || pipeline.timed !== null) {
      const word = pipeline.negated ? "!" : "time";
      const start = pipeline.start;
      steps.push({
        read: () => {},
        before: () => {
          throw unsupportedConstruct(keywordLabel(word), start, start + word.length);
        },
      });
    }
    const stages: Command[] = [];
    const pipes: Operator<"|">[] = [];
    pipeline.commands.forEach((command, index) => {
      if (index > 0) {
        const previous = pipeline.commands[index - 1] as BashCommand;
        const op = pipeline.operators[index - 1];
        const span = operatorAfter(this.source, previous.end, op ?? "|");
        steps.push({
          read: () => {
            if (op === "|&") {
              const at = span?.start ?? previous.end;
              throw unsupportedConstruct(LABELS.background, at, at + 2);
            }
            pipes.push(operatorOf("|", span, previous.end));
          },
        });
      }
      this.commandSteps(command, steps, stages);
    });
    steps.push({
      read: () => {
        const first = stages[0] as Command;
        const last = stages.at(-1) as Command;
        out.push({ type: "pipeline", stages, pipes, start: first.start, end: last.end });
      },
    });
  }

  private commandSteps(command: BashCommand, steps: Step[], out: Command[]): void {
    if (command.type !== "SimpleCommand") {
      steps.push({ read: () => refuseCommand(this.source, command) });
      return;
    }
    const words: Word[] = [];
    const redirections: Redirection[] = [];
    let first = true;
    for (const item of itemsInOrder(command)) {
      if (item.type === "Assignment") {
        steps.push({ read: () => this.refuseAssignment(item) });
      } else if (item.type === "Word") {
        this.wordSteps(item, steps, words, first);
        first = false;
      } else {
        this.redirectSteps(item, steps, redirections);
      }
    }
    steps.push({
      read: () => {},
      before: () => out.push(this.finishCommand(command, words, redirections)),
    });
  }

  private wordSteps(word: BashWord, steps: Step[], words: Word[], first: boolean): void {
    let converted: Word | undefined;
    steps.push({
      read: () => {
        converted = subsetWord(this.source, word);
      },
      before: () => {
        if (first) checkProgramWord(converted as Word);
      },
      after: () => {
        words.push(this.countWord(converted as Word));
      },
    });
  }

  private redirectSteps(redirect: BashRedirect, steps: Step[], out: Redirection[]): void {
    let made: ReturnType<typeof subsetRedirect> | undefined;
    steps.push({
      read: () => {
        made = subsetRedirect(this.source, redirect);
      },
    });
    let target: Word | undefined;
    steps.push({
      read: () => {
        if (made?.kind === "duplicate") return;
        target = subsetWord(this.source, redirect.target);
      },
      after: () => {
        if (made === undefined) return;
        if (made.kind === "duplicate") {
          out.push(made.redirection);
          return;
        }
        const word = this.countWord(target as Word);
        if (isGlobWord(word)) throw unsupportedConstruct(LABELS.globTarget, word.start, word.end);
        if (literalValue(word) === "") {
          throw malformed("empty redirection target", word.start, word.end);
        }
        const { operatorSpan, start } = made.redirection;
        out.push({ ...made.redirection, operatorSpan, target: word, start, end: word.end });
      },
    });
  }

  private refuseAssignment(assignment: SimpleCommand["assignments"][number]): never {
    const value = assignment.value;
    // `a=(…)`: the subset's word ends at `(`, so the assignment is what it refuses.
    if (value?.type === "ArrayLiteral") {
      throw unsupportedConstruct(LABELS.assignment, assignment.start, value.start);
    }
    if (value !== null) subsetWord(this.source, value, true);
    throw unsupportedConstruct(LABELS.assignment, assignment.start, assignment.end);
  }

  private countWord(word: Word): Word {
    this.wordCount += 1;
    if (this.wordCount > this.limits.maxWords) {
      throw limitExceeded(
        "word count",
        `more than ${this.limits.maxWords} words`,
        word.start,
        word.end,
      );
    }
    checkBraces(word);
    return word;
  }

  private finishCommand(
    command: SimpleCommand,
    words: readonly Word[],
    redirections: readonly Redirection[],
  ): Command {
    const start = command.start;
    const end = Math.max(words.at(-1)?.end ?? start, redirections.at(-1)?.end ?? start);
    if (words.length === 0) throw malformed("redirection with no command", start, end);
    this.commandCount += 1;
    if (this.commandCount > this.limits.maxCommands) {
      throw limitExceeded(
        "command count",
        `more than ${this.limits.maxCommands} commands`,
        start,
        end,
      );
    }
    const made: Command = { type: "command", words, redirections, start, end };
    checkCommandWords(made);
    return made;
  }
}

type BashStatement = {
  readonly andOr: {
    readonly pipelines: readonly BashPipeline[];
    readonly operators: readonly ("&&" | "||")[];
    readonly end: number;
  };
  readonly background: boolean;
  readonly end: number;
};

function run(steps: readonly Step[]): void {
  steps[0]?.read();
  for (let index = 0; index < steps.length; index += 1) {
    const step = steps[index] as Step;
    step.before?.();
    steps[index + 1]?.read();
    step.after?.();
  }
}

function operatorOf<Op extends string>(
  op: Op,
  span: { readonly start: number; readonly end: number } | null,
  fallback: number,
): Operator<Op> {
  return { type: "operator", op, start: span?.start ?? fallback, end: span?.end ?? fallback };
}

/** Words, assignments and redirections of a simple command in source order. */
function itemsInOrder(command: SimpleCommand) {
  return [...command.assignments, ...command.words, ...command.redirects].sort(
    (left, right) => left.start - right.start,
  );
}

/** Compound commands and functions: refused with the label of the token that opens them. */
function refuseCommand(source: string, command: Exclude<BashCommand, SimpleCommand>): never {
  const start = command.start;
  if (command.type === "FunctionDefinition") {
    if (command.keyword) throw unsupportedConstruct(keywordLabel("function"), start, start + 8);
    // `name() …`: the name is read as a command word first, then `(` is a subshell.
    const name = command.name;
    const end = start + name.length;
    checkProgramWord({
      type: "word",
      parts: [{ type: "literal", value: name, start, end }],
      start,
      end,
    });
    const open = source.indexOf("(", end);
    throw dynamicConstruct(LABELS.subshell, open, open + 1);
  }
  const body = command.body;
  if (body.type === "Subshell" || body.type === "ArithmeticCommand") {
    throw dynamicConstruct(LABELS.subshell, start, start + 1);
  }
  const word = /^[^\s;&|<>()]+/.exec(source.slice(start))?.[0] ?? source.slice(start, start + 1);
  throw unsupportedConstruct(keywordLabel(word), start, start + word.length);
}
