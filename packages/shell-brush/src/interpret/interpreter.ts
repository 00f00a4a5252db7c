/**
 * The in-process interpreter: walks a parsed `Script` with shell state, memory I/O, a
 * pluggable `ExternalRunner` and a `ShellAccess` gate through which every filesystem
 * touch and every command start goes. Pipelines run stage by stage, each stage's output
 * buffered into the next one's input (a divergence from bash for endless producers).
 *
 * This file holds the shell itself (state, lists, subshells, traps, dispatch); simple
 * commands, compound commands, pipelines, redirections and functions live beside it.
 */

import type { AndOr, Command, FunctionDefinition, List, Script } from "@agent-bridle/bash";
import { parseBash } from "@agent-bridle/bash";
import type { Denial } from "@agent-bridle/core";
import type { BuiltinContext } from "./builtins/builtin-context.js";
import { enabledBuiltin } from "./builtins/table.js";
import { type CommandLocation, resolveCommand } from "./commands/command-search.js";
import { runCompound } from "./commands/compound.js";
import { runDebugTrap, setBashCommand } from "./commands/debug-trap.js";
import { printFunction } from "./commands/function-print.js";
import { runPipeline } from "./commands/pipeline.js";
import { processSubstitute } from "./commands/process-substitution.js";
import { invoke, runSimple } from "./commands/simple-command.js";
import { commandError, commandSync, runsSynchronously } from "./commands/synchronous.js";
import type { ExecContext } from "./exec-context.js";
import { Expander } from "./expand/expand.js";
import type { InterpreterOptions, RunResult } from "./interpreter-options.js";
import type { ExternalRunner } from "./io/external.js";
import { recordingAccess } from "./io/gate.js";
import { encodingSink, type Fds, InputSource, MemorySink, sinkOf, sourceOf } from "./io/io.js";
import type { ShellAccess } from "./io/shell-access.js";
import { ProcessSubstitutions } from "./io/substitution-table.js";
import type { WriteMeter } from "./io/write-meter.js";
import { ExitSignal, LineAbort, LoopSignal, ReturnSignal } from "./signals.js";
import { nextShellPid, setInitialVariables } from "./state/initial-variables.js";
import { Jobs } from "./state/jobs.js";
import { isOptionName } from "./state/shell-options.js";
import { type Code, lineStarts, type SourceOrigin } from "./state/source-code.js";
import { ShellState } from "./state/state.js";

export type { InterpreterOptions, RunResult } from "./interpreter-options.js";
export type { Code, SourceOrigin } from "./state/source-code.js";

/** What a forked interpreter shares with its parent. */
interface Shared {
  readonly access: ShellAccess;
  readonly rawAccess: ShellAccess;
  readonly substitutions: ProcessSubstitutions;
  readonly cleanups: (() => Promise<void> | void)[];
  readonly origins: WeakMap<FunctionDefinition, SourceOrigin>;
  readonly jobs: Jobs;
}

export class Interpreter implements ExecContext {
  readonly state: ShellState;
  readonly runner: ExternalRunner;
  readonly expander: Expander;
  /** The gate as the interpreter uses it: denials recorded, process substitutions served. */
  readonly access: ShellAccess;
  /** The host's gate as given: for probes that must not be recorded (PATH candidates). */
  readonly rawAccess: ShellAccess;
  readonly onDenial: (denial: Denial) => void;
  /** The live process substitutions (shared with subshells). */
  readonly substitutions: ProcessSubstitutions;
  /** Run when the whole run ends (descriptors `exec` left open). */
  readonly cleanups: (() => Promise<void> | void)[];
  /** Background jobs (shared with subshells). */
  readonly jobs: Jobs;
  /** Where each function was defined (shared with subshells). */
  private readonly origins: WeakMap<FunctionDefinition, SourceOrigin>;
  readonly signal: AbortSignal | undefined;
  readonly deadline: number | undefined;
  /** The run's limit on the bytes written to files by redirections (shared with subshells). */
  readonly writeMeter: WriteMeter | undefined;
  private readonly options: InterpreterOptions;
  code: Code = { text: "", starts: [0], base: 0 };
  line = 1;
  /** > 0 while running an `if`/`while` condition or a non-final `&&`/`||` member. */
  conditionDepth = 0;
  loopDepth = 0;
  /** The descriptors of the command being run (command substitutions inherit them). */
  currentFds: Fds = new Map();
  /** `$?` of the last command substitution of the current simple command. */
  lastSubstitutionStatus: number | null = null;
  traceLevel = 1;
  inTrap = false;
  /** A pipeline stage or background job: other shell code of the run may run alongside. */
  concurrent = false;
  /** Aliases being expanded now (never expanded again inside themselves). */
  readonly expandingAliases = new Set<string>();
  /** The file the running code comes from (`BASH_SOURCE` of new functions; `main` at first). */
  currentSource = "main";

  constructor(options: InterpreterOptions, state?: ShellState, shared?: Shared) {
    this.options = options;
    this.runner = options.runner;
    this.signal = options.signal;
    this.deadline = options.deadline;
    this.writeMeter = options.writeMeter;
    this.onDenial = options.onDenial ?? (() => undefined);
    this.substitutions = shared?.substitutions ?? new ProcessSubstitutions();
    this.rawAccess = shared?.rawAccess ?? options.access;
    this.access =
      shared?.access ?? recordingAccess(options.access, this.onDenial, this.substitutions);
    this.cleanups = shared?.cleanups ?? [];
    this.origins = shared?.origins ?? new WeakMap();
    this.jobs = shared?.jobs ?? new Jobs(options.signal);
    if (state !== undefined) this.state = state;
    else {
      this.state = new ShellState(options.cwd, nextShellPid());
      for (const [name, value] of Object.entries(options.env ?? {}))
        this.state.set(name, value).exported = true;
      this.state.positional = [...(options.args ?? [])];
      this.state.scriptName = options.scriptName ?? "bash";
      this.state.lastArgument = this.state.scriptName;
      setInitialVariables(this.state);
      this.state.set("PWD", options.cwd).exported = true;
      this.state.syncStack();
    }
    this.state.currentLine = () => this.line;
    this.expander = new Expander({
      state: this.state,
      access: this.access,
      line: () => this.line,
      warn: (message) => this.error(this.currentFds, message),
      substitute: (script) => this.substitute(script),
      processSubstitute: (script, direction) => processSubstitute(this, script, direction),
    });
  }

  /** Run a whole script (parse errors are reported as bash does, exit status 2). */
  async run(source: string, stdin?: Uint8Array): Promise<RunResult> {
    const stdout = new MemorySink();
    const stderr = new MemorySink();
    const fds: Fds = new Map();
    fds.set(0, new InputSource(stdin ?? new Uint8Array()));
    fds.set(1, this.options.stdout === undefined ? stdout : encodingSink(this.options.stdout));
    fds.set(2, this.options.stderr === undefined ? stderr : encodingSink(this.options.stderr));
    let status: number;
    try {
      status = await this.runSource(source, fds, true);
      status = await this.runExitTrap(status, fds);
    } finally {
      await this.jobs.stopAll();
      for (const cleanup of this.cleanups) await cleanup();
    }
    return { stdout: stdout.bytes(), stderr: stderr.bytes(), exitCode: status };
  }

  /** Parse and run `source` in this shell (`eval`, `source`, the top level). */
  async runSource(source: string, fds: Fds, topLevel = false, lineBase = 0): Promise<number> {
    const parsed = parseBash(source);
    const savedCode = this.code;
    this.code = { text: source, starts: lineStarts(source), base: lineBase };
    try {
      if (!parsed.ok) {
        const errorLine = parsed.error.line;
        if (topLevel && errorLine > 1) {
          const prefix = source
            .split("\n")
            .slice(0, errorLine - 1)
            .join("\n");
          const early = parseBash(prefix);
          if (early.ok) {
            const status = await this.runTop(early.script, fds);
            if (status.exited) return status.status;
          }
        }
        sinkOf(fds, 2).write(`${this.prefix()}: line ${errorLine}: ${parsed.error.message}\n`);
        this.state.lastStatus = 2;
        return 2;
      }
      if (!topLevel) return await this.script(parsed.script, fds);
      return (await this.runTop(parsed.script, fds)).status;
    } finally {
      this.code = savedCode;
    }
  }

  private async runTop(script: Script, fds: Fds): Promise<{ status: number; exited: boolean }> {
    try {
      let status = 0;
      let abandonedLine = -1;
      for (const statement of script.body.statements) {
        this.setLine(statement.start);
        if (this.line === abandonedLine) continue;
        try {
          status = await this.list({ ...script.body, statements: [statement] }, fds);
        } catch (signal) {
          if (!(signal instanceof LineAbort)) throw signal;
          this.setLine(statement.end);
          abandonedLine = this.line;
          status = signal.status;
          this.state.lastStatus = status;
        }
      }
      return { status, exited: false };
    } catch (signal) {
      if (signal instanceof ExitSignal) return { status: signal.status, exited: true };
      if (signal instanceof ReturnSignal) return { status: signal.status, exited: false };
      if (signal instanceof LoopSignal) return { status: 0, exited: false };
      throw signal;
    }
  }

  prefix(): string {
    const frames = this.state.frames;
    if (frames.length === 0) return this.state.scriptName;
    const source = (frames[frames.length - 1] as { source: string }).source;
    return source === "main" && this.state.funcNames.length === 0 ? this.state.scriptName : source;
  }

  /** Where `fn` was defined (the script itself when unknown). */
  functionOrigin(fn: FunctionDefinition): SourceOrigin {
    return this.origins.get(fn) ?? { source: "main", code: this.code };
  }

  /** `fn` as `declare -f` prints it. */
  functionText(fn: FunctionDefinition): string {
    return printFunction(fn, this.functionOrigin(fn).code.text);
  }

  /** Run code from `origin` next (a function body, a sourced file); restore with `leaveSource`. */
  enterSource(origin: SourceOrigin): SourceOrigin & { readonly line: number } {
    const saved = { source: this.currentSource, code: this.code, line: this.line };
    this.currentSource = origin.source;
    this.code = origin.code;
    return saved;
  }

  leaveSource(saved: SourceOrigin & { readonly line: number }): void {
    this.currentSource = saved.source;
    this.code = saved.code;
    this.line = saved.line;
  }

  /** Report `message` as bash would: `bash: line N: message`. */
  error(fds: Fds, message: string): void {
    sinkOf(fds, 2).write(`${this.prefix()}: line ${this.line}: ${message}\n`);
  }

  setLine(offset: number): void {
    let low = 0;
    const starts = this.code.starts;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    this.line = low + 1 + this.code.base;
  }

  async script(script: Script, fds: Fds): Promise<number> {
    return this.list(script.body, fds);
  }

  async list(list: List, fds: Fds): Promise<number> {
    let status = 0;
    for (const statement of list.statements) {
      if (statement.background) {
        const andOr = statement.andOr;
        this.state.lastBackground = this.jobs.start(this.state.pid, (signal) => {
          const child = this.forkJob(signal);
          return child.subshellRun(() => child.runAndOr(andOr, fds), fds);
        });
        status = 0;
        this.state.lastStatus = 0;
        continue;
      }
      status = await this.andOr(statement.andOr, fds);
    }
    return status;
  }

  /** Run one and-or list (a background job's body). */
  runAndOr(andOr: AndOr, fds: Fds): Promise<number> {
    return this.andOr(andOr, fds);
  }

  private async andOr(andOr: AndOr, fds: Fds): Promise<number> {
    let status = 0;
    for (const [index, pipeline] of andOr.pipelines.entries()) {
      if (index > 0) {
        const operator = andOr.operators[index - 1];
        if (operator === "&&" && status !== 0) continue;
        if (operator === "||" && status === 0) continue;
      }
      const last = index === andOr.pipelines.length - 1;
      if (!last) this.conditionDepth += 1;
      try {
        status = await runPipeline(this, pipeline, fds);
      } finally {
        if (!last) this.conditionDepth -= 1;
      }
      this.state.lastStatus = status;
      if (last && status !== 0 && this.conditionDepth === 0 && !pipeline.negated) {
        if (this.state.funcNames.length === 0 || this.state.options.errtrace)
          await this.runTrap("ERR", fds);
        if (this.state.options.errexit) throw new ExitSignal(status);
      }
    }
    return status;
  }

  /**
   * A subshell: a copy of the state; the gate, runner and substitutions are shared. A
   * `concurrent` subshell (a pipeline stage) keeps its own process-substitution table
   * over its parent's, since it runs alongside other stages.
   */
  fork(concurrent = false): Interpreter {
    const child = new Interpreter(
      {
        ...this.options,
        cwd: this.state.cwd,
      },
      this.state.fork(),
      {
        access: this.access,
        rawAccess: this.rawAccess,
        substitutions: concurrent
          ? new ProcessSubstitutions(this.substitutions)
          : this.substitutions,
        cleanups: this.cleanups,
        origins: this.origins,
        jobs: this.jobs,
      },
    );
    child.code = this.code;
    child.line = this.line;
    child.traceLevel = this.traceLevel;
    child.currentSource = this.currentSource;
    child.concurrent = concurrent || this.concurrent;
    return child;
  }

  /** A background job's subshell: stopped by `signal` (the run's end, or the outer one). */
  forkJob(signal: AbortSignal): Interpreter {
    const child = this.fork();
    const job = new Interpreter({ ...this.options, cwd: this.state.cwd, signal }, child.state, {
      access: this.access,
      rawAccess: this.rawAccess,
      substitutions: new ProcessSubstitutions(this.substitutions),
      cleanups: this.cleanups,
      origins: this.origins,
      jobs: this.jobs,
    });
    job.code = this.code;
    job.line = this.line;
    job.traceLevel = this.traceLevel;
    job.currentSource = this.currentSource;
    job.concurrent = true;
    return job;
  }

  async subshellRun(body: () => Promise<number>, fds?: Fds): Promise<number> {
    let status: number;
    try {
      status = await body();
    } catch (signal) {
      if (signal instanceof ExitSignal || signal instanceof LineAbort) status = signal.status;
      else if (signal instanceof ReturnSignal) status = signal.status;
      else if (signal instanceof LoopSignal) status = 0;
      else throw signal;
    }
    return fds === undefined ? status : this.runExitTrap(status, fds);
  }

  /** Run the EXIT trap (once); an `exit` inside it sets the final status. */
  async runExitTrap(status: number, fds: Fds): Promise<number> {
    const action = this.state.traps.get("EXIT");
    if (action === undefined || action === "") return status;
    this.state.traps.delete("EXIT");
    this.state.lastStatus = status;
    try {
      await this.runSource(action, fds);
      return status;
    } catch (signal) {
      if (signal instanceof ExitSignal) return signal.status;
      if (signal instanceof ReturnSignal || signal instanceof LoopSignal) return status;
      throw signal;
    }
  }

  /** Run an ERR/RETURN trap; `$?` is kept around it. */
  async runTrap(name: string, fds: Fds): Promise<number> {
    const action = this.state.traps.get(name);
    if (action === undefined || action === "" || this.inTrap) return 0;
    const saved = this.state.lastStatus;
    this.inTrap = true;
    try {
      return await this.runSource(action, fds, false, this.line - 1);
    } finally {
      this.inTrap = false;
      this.state.lastStatus = saved;
    }
  }

  private async substitute(script: Script): Promise<string> {
    const child = this.fork();
    child.traceLevel = this.traceLevel + 1;
    if (!this.state.shopt.has("inherit_errexit")) child.state.options.errexit = false;
    const capture = new MemorySink();
    const fds: Fds = new Map(this.currentFds);
    fds.set(1, capture);
    const status = await child.subshellRun(() => child.script(script, fds), fds);
    this.state.lastStatus = status;
    this.lastSubstitutionStatus = status;
    return capture.text();
  }

  async command(command: Command, fds: Fds): Promise<number> {
    if (runsSynchronously(this, command)) return commandSync(this, command, fds);
    if (this.signal?.aborted || (this.deadline !== undefined && Date.now() > this.deadline))
      throw new ExitSignal(124);
    this.setLine(command.start);
    this.currentFds = fds;
    const mark = this.substitutions.mark();
    try {
      if (this.state.traps.has("DEBUG") && (await runDebugTrap(this, command, fds)) === "skip")
        return 0;
      if (command.type === "SimpleCommand") {
        if (!this.inTrap) setBashCommand(this, this.code.text.slice(command.start, command.end));
        return await runSimple(this, command, fds);
      }
      if (command.type === "FunctionDefinition") {
        this.state.functions.set(command.name, command);
        this.origins.set(command, { source: this.currentSource, code: this.code });
        return 0;
      }
      return await runCompound(this, command, fds);
    } catch (error) {
      return commandError(this, fds, error);
    } finally {
      await this.substitutions.settle(mark);
    }
  }

  builtinContext(fds: Fds): BuiltinContext {
    return {
      interpreter: this,
      state: this.state,
      fds,
      stdout: sinkOf(fds, 1),
      stderr: sinkOf(fds, 2),
      stdin: sourceOf(fds, 0),
      inLoop: this.loopDepth > 0,
      error: (message) => this.error(fds, message),
    };
  }

  isBuiltin(name: string): boolean {
    return enabledBuiltin(this.state, name) !== undefined;
  }

  /** Run an expanded command (for `command` and `builtin`): functions optional. */
  invoke(
    argv: string[],
    fds: Fds,
    options: { readonly functions: boolean; readonly externals: boolean },
  ): Promise<number> {
    return invoke(this, argv, fds, options);
  }

  /** Where a program named `name` runs from (`type`, `command -v`, `hash`). */
  resolveCommand(name: string): Promise<CommandLocation> {
    return resolveCommand(this, name);
  }

  /** `set -o name` is on (`[[ -o name ]]`, `test -o name`). */
  optionSet(name: string): boolean {
    return isOptionName(name) && this.state.options[name];
  }

  /** `-v name` / `-v name[index]`. */
  isSet(operand: string): boolean {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/s.exec(operand);
    if (match === null) {
      const variable = this.state.lookup(operand);
      if (variable === undefined || variable.declaredOnly) return false;
      if (this.state.resolveName(operand).includes("[")) return false;
      return variable.array === null ? variable.value !== null : variable.array.has("0");
    }
    const variable = this.state.lookup(match[1] as string);
    if (variable === undefined) return false;
    const key = match[2] as string;
    if (key === "@" || key === "*") return (variable.array?.size ?? 0) > 0;
    if (variable.array === null) return key === "0" && variable.value !== null;
    return variable.array.has(variable.assoc ? key : String(this.expander.evaluate(key)));
  }
}

/** Run a bash script in-process; the convenience entry for tests and the compat engine. */
export async function runBash(source: string, options: InterpreterOptions): Promise<RunResult> {
  return new Interpreter(options).run(source, options.stdin);
}
