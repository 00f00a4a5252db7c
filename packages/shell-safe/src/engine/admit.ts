import { stat } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import {
  createDenial,
  type Denial,
  type DenialKind,
  isBareProgram,
  isNullDevice,
  type ToolContext,
} from "@agent-bridle/core";
import { UTILITIES, type UtilityName } from "@agent-bridle/coreutils";
import type { Command, Pipeline, Script, Word } from "../subset/ast.js";
import { isGlobWord, wordVariables } from "../subset/word-value.js";
import { type ExpansionEnvironment, expandWord } from "./expand-word.js";
import { expandPatternTokens, type PatternToken, UnsupportedPattern } from "./pattern-expansion.js";
import type { ProgramLookup } from "./program-lookup.js";

/** A redirection after expansion; files are opened only when their pipeline runs. */
export type AdmittedRedirection =
  | {
      readonly kind: "file";
      readonly fd: 0 | 1 | 2;
      readonly operator: "<" | ">" | ">>";
      /** The expanded target as bash would open it (relative to the request cwd). */
      readonly path: string;
    }
  | { readonly kind: "duplicate" };

export interface AdmittedStage {
  /** The program as the script spells it (after quote removal and tilde expansion). */
  readonly spelled: string;
  /** The absolute program to run, or `undefined` when bash would say "command not found". */
  readonly program: string | undefined;
  /**
   * A granted utility of the six missing from the search path: runs as the carried one
   * from `@agent-bridle/coreutils` (its logical name; `program` is then `undefined`).
   */
  readonly carried?: UtilityName | undefined;
  /**
   * Arguments after `argv[0]`: fixed words, and patterns that were expanded (and their
   * directories judged) at admission and are expanded again when the pipeline runs, as
   * bash does (an earlier pipeline may have created files).
   */
  readonly args: readonly AdmittedArgument[];
  readonly redirections: readonly AdmittedRedirection[];
}

export type AdmittedArgument =
  | { readonly kind: "fixed"; readonly value: string }
  | {
      readonly kind: "pattern";
      readonly tokens: readonly PatternToken[];
      /** What bash passes when nothing matches (the quote-removed word). */
      readonly literal: string;
      /** The word's source text (the denial target). */
      readonly source: string;
    };

export interface AdmittedPipeline {
  readonly stages: readonly AdmittedStage[];
}

export interface AdmittedList {
  readonly head: AdmittedPipeline;
  readonly tail: readonly { readonly op: "&&" | "||"; readonly pipeline: AdmittedPipeline }[];
}

export interface AdmittedScript {
  readonly lists: readonly AdmittedList[];
}

export interface AdmissionContext {
  readonly cx: ToolContext;
  /** The absolute, already checked working directory. */
  readonly cwd: string;
  readonly env: ExpansionEnvironment;
  readonly maxGlobMatches: number;
  /** Resolves bare program names (on the trusted `PATH` unless a test says otherwise). */
  readonly lookup: ProgramLookup;
}

export type Admission =
  | { readonly ok: true; readonly script: AdmittedScript }
  | { readonly ok: false; readonly denial: Denial };

/** A refusal raised anywhere in admission and caught once by `admitScript`. */
export class Refused extends Error {
  constructor(readonly denial: Denial) {
    super(denial.reason);
  }
}

const NOT_FOUND_CODES = new Set(["FS_NOT_FOUND", "FS_CANNOT_RESOLVE"]);

/**
 * Admission (reference §3.6, spec §7): every word expanded exactly as bash would, every
 * program exec-checked (spelled and resolved), every listed directory and redirect
 * target judged. Judging only: nothing is opened and nothing runs here, and one refusal
 * refuses the whole script.
 */
export async function admitScript(script: Script, context: AdmissionContext): Promise<Admission> {
  try {
    const lists: AdmittedList[] = [];
    for (const list of script.lists) {
      const head = await admitPipeline(script.source, list.head, context);
      const tail = [];
      for (const link of list.tail) {
        tail.push({
          op: link.operator.op,
          pipeline: await admitPipeline(script.source, link.pipeline, context),
        });
      }
      lists.push({ head, tail });
    }
    return { ok: true, script: { lists } };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, denial: error.denial };
    throw error;
  }
}

async function admitPipeline(
  source: string,
  pipeline: Pipeline,
  context: AdmissionContext,
): Promise<AdmittedPipeline> {
  const stages: AdmittedStage[] = [];
  for (const command of pipeline.stages) stages.push(await admitCommand(source, command, context));
  return { stages };
}

function textOf(source: string, word: Word): string {
  return source.slice(word.start, word.end);
}

function variableRefusal(
  kind: DenialKind,
  name: string,
  reason: "not-allowlisted" | "would-split",
): Refused {
  const target = `$${name}`;
  if (reason === "not-allowlisted") {
    return new Refused(
      createDenial(
        kind,
        target,
        "SHELL_UNSUPPORTED_CONSTRUCT",
        `denied: variable ${target} is not in the confined shell's allowlist`,
      ),
    );
  }
  return new Refused(
    createDenial(
      kind,
      target,
      "SHELL_UNSUPPORTED_CONSTRUCT",
      `refused: the value of ${target} holds whitespace or pattern characters, so bash would split or glob it unquoted; write "${target}" in double quotes`,
    ),
  );
}

async function expandArgument(
  source: string,
  word: Word,
  context: AdmissionContext,
): Promise<AdmittedArgument[]> {
  const expanded = expandWord(word, context.env);
  if (!expanded.ok) throw variableRefusal("exec", expanded.name, expanded.reason);
  if (expanded.vanishes) return [];
  if (expanded.pattern === undefined) return [{ kind: "fixed", value: expanded.text }];
  const argument = {
    kind: "pattern" as const,
    tokens: expanded.pattern,
    literal: expanded.text,
    source: textOf(source, word),
  };
  await expandPattern(argument, context);
  return [argument];
}

/**
 * Pathname expansion of one admitted pattern, every listed directory judged for
 * `fs_read` first; throws `Refused` (a listing outside the grant, over the match cap,
 * a construct not interpreted exactly). Used at admission and again at run time.
 */
export async function expandPattern(
  argument: Extract<AdmittedArgument, { kind: "pattern" }>,
  context: Pick<AdmissionContext, "cx" | "cwd" | "maxGlobMatches">,
): Promise<string[]> {
  const pattern = argument.source;
  let result: Awaited<ReturnType<typeof expandPatternTokens>>;
  let refusal: Denial | undefined;
  try {
    result = await expandPatternTokens({
      tokens: argument.tokens,
      cwd: context.cwd,
      maxMatches: context.maxGlobMatches,
      beforeList: async (directory) => {
        const judged = await context.cx.checkPathRead(directory, { baseDir: context.cwd });
        if (!judged.ok) refusal = judged.denial;
        return judged.ok;
      },
    });
  } catch (error) {
    if (!(error instanceof UnsupportedPattern)) throw error;
    throw new Refused(
      createDenial(
        "exec",
        pattern,
        "SHELL_UNSUPPORTED_CONSTRUCT",
        `not supported by the confined shell engine: ${error.message} in a glob pattern`,
      ),
    );
  }
  switch (result.kind) {
    case "matched":
      return result.paths.length > 0 ? [...result.paths] : [argument.literal];
    case "over-cap":
      throw new Refused(
        createDenial(
          "exec",
          pattern,
          "SHELL_LIMIT_EXCEEDED",
          `limit exceeded: the pattern matches more than ${context.maxGlobMatches} paths; narrow it`,
        ),
      );
    case "undecodable":
      throw new Refused(
        createDenial(
          "exec",
          pattern,
          "SHELL_UNSUPPORTED_CONSTRUCT",
          "not supported by the confined shell engine: a matched file name is not valid UTF-8",
        ),
      );
    default: {
      const denial = refusal as Denial;
      throw new Refused(
        createDenial(
          "open",
          pattern,
          denial.code,
          `${denial.reason} (a directory the pattern lists)`,
        ),
      );
    }
  }
}

async function admitProgram(
  source: string,
  word: Word,
  context: AdmissionContext,
): Promise<Pick<AdmittedStage, "spelled" | "program" | "carried">> {
  if (isGlobWord(word) || wordVariables(word).length > 0) {
    throw new Refused(
      createDenial(
        "exec",
        textOf(source, word),
        "SHELL_UNSUPPORTED_CONSTRUCT",
        "refused: the program must be a literal name, not a pattern or a variable",
      ),
    );
  }
  const expanded = expandWord(word, context.env);
  if (!expanded.ok) throw variableRefusal("exec", expanded.name, expanded.reason);
  return checkProgram(expanded.text, context);
}

/**
 * Exec identity (spec §3): a bare name resolved only on the trusted `PATH`, a path
 * spelling taken as written (relative ones against the request cwd); core's check on
 * both. `program` is `undefined` when bash would report "command not found".
 */
async function checkProgram(
  spelled: string,
  context: AdmissionContext,
  argv: readonly string[] = [spelled],
): Promise<Pick<AdmittedStage, "spelled" | "program" | "carried">> {
  const bare = isBareProgram(spelled);
  const resolved = bare
    ? await context.lookup(spelled)
    : isAbsolute(spelled)
      ? spelled
      : join(context.cwd, spelled);
  // The check is on the name as spelled (the logical name for a carried utility).
  const decision = await context.cx.checkExec({ spelled, resolved });
  if (!decision.ok) {
    // A refused program reaches the host's audit hook as a refused spawn (issue 17
    // point 8); a script's arguments are not expanded yet, so only its name is known.
    context.cx.audit.record({
      type: "spawn",
      tool: context.cx.toolName,
      argv: [...argv],
      decision: "denied",
      code: decision.denial.code,
    });
    throw new Refused(decision.denial);
  }
  const program = resolved;
  if (program === undefined) {
    const carried = Object.hasOwn(UTILITIES, spelled) ? (spelled as UtilityName) : undefined;
    return { spelled, program: undefined, carried };
  }
  if (!bare) {
    const exists = await stat(program).then(
      (info) => info.isFile(),
      () => false,
    );
    if (!exists) return { spelled, program: undefined };
  }
  return { spelled, program };
}

/** The argv form: one stage whose words are all literal (no globbing, quoting or variables). */
export async function admitArgv(
  program: string,
  args: readonly string[],
  context: AdmissionContext,
): Promise<Admission> {
  try {
    if ([program, ...args].some((word) => word.includes("\0"))) {
      throw new Refused(
        createDenial(
          "exec",
          "NUL byte in an argument",
          "SHELL_PARSE_ERROR",
          "refused: an argument holds a NUL byte, which no program can receive; remove it",
        ),
      );
    }
    const stage = {
      ...(await checkProgram(program, context, [program, ...args])),
      args: args.map((value) => ({ kind: "fixed" as const, value })),
      redirections: [],
    };
    return { ok: true, script: { lists: [{ head: { stages: [stage] }, tail: [] }] } };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, denial: error.denial };
    throw error;
  }
}

async function admitRedirections(
  source: string,
  command: Command,
  context: AdmissionContext,
): Promise<AdmittedRedirection[]> {
  const admitted: AdmittedRedirection[] = [];
  for (const redirection of command.redirections) {
    if (redirection.kind === "duplicate") {
      admitted.push({ kind: "duplicate" });
      continue;
    }
    const expanded = expandWord(redirection.target, context.env);
    if (!expanded.ok) throw variableRefusal("open", expanded.name, expanded.reason);
    if (expanded.vanishes || expanded.pattern !== undefined) {
      throw new Refused(
        createDenial(
          "open",
          textOf(source, redirection.target),
          "SHELL_UNSUPPORTED_CONSTRUCT",
          "refused: bash would report an ambiguous redirect (the target expands to no word)",
        ),
      );
    }
    const path = expanded.text;
    if (!isNullDevice(path)) {
      const reading = redirection.operator === "<";
      const judged = reading
        ? await context.cx.checkPathRead(path, { baseDir: context.cwd })
        : await context.cx.checkPathWrite(path, { baseDir: context.cwd });
      // A target that does not exist yet (`mkdir d && echo x > d/f`) is judged again by
      // the mediated open when its pipeline runs; bash reports it then, and so do we.
      if (!judged.ok && !NOT_FOUND_CODES.has(judged.denial.code)) throw new Refused(judged.denial);
    }
    admitted.push({ kind: "file", fd: redirection.fd, operator: redirection.operator, path });
  }
  return admitted;
}

async function admitCommand(
  source: string,
  command: Command,
  context: AdmissionContext,
): Promise<AdmittedStage> {
  const [programWord, ...argumentWords] = command.words;
  if (programWord === undefined) {
    throw new Refused(
      createDenial(
        "exec",
        "malformed input",
        "SHELL_PARSE_ERROR",
        "malformed command: a redirection with no command",
      ),
    );
  }
  const identity = await admitProgram(source, programWord, context);
  const args: AdmittedArgument[] = [];
  for (const word of argumentWords) args.push(...(await expandArgument(source, word, context)));
  const redirections = await admitRedirections(source, command, context);
  return { ...identity, args, redirections };
}
