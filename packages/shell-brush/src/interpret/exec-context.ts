/**
 * What a command runner, a builtin or an expansion step is handed instead of the whole
 * `Interpreter` class: the shell's state and expander, the two walls (`ShellAccess` for
 * every file and program check, `ExternalRunner` for every program), error reporting,
 * and the few entry points back into the tree walk (`list`, `command`, `runSource`,
 * `fork`). `Interpreter` implements it; everything below `interpreter.ts` imports only
 * this interface, so the folders (`commands/`, `builtins/`, `expand/`, `state/`, `io/`)
 * import no class above them and form no import circle.
 *
 * The per-command counters (`conditionDepth`, `loopDepth`, `traceLevel`, `currentFds`,
 * `lastSubstitutionStatus`, `line`) are still fields here, written by the runners that
 * enter and leave those states; ADR 0028 records them as the next step (a frame passed
 * down instead).
 */
import type { Command, FunctionDefinition, List, Script } from "@agent-bridle/bash";
import type { Denial } from "@agent-bridle/core";
import type { Expander } from "./expand/expand.js";
import type { ExternalRunner } from "./io/external.js";
import type { Fds, InputSource, OutputSink } from "./io/io.js";
import type { ShellAccess } from "./io/shell-access.js";
import type { ProcessSubstitutions } from "./io/substitution-table.js";
import type { WriteMeter } from "./io/write-meter.js";
import type { Jobs } from "./state/jobs.js";
import type { Code, SourceOrigin } from "./state/source-code.js";
import type { ShellState } from "./state/state.js";

/** Where a program named `name` runs from (`type`, `command -v`, `hash`), or why not. */
export type CommandLocation =
  | { readonly path: string }
  | {
      readonly status: number;
      readonly message: string;
    };

/** How `command` and `builtin` run an expanded command. */
export interface InvokeOptions {
  readonly functions: boolean;
  readonly externals: boolean;
}

/** What a builtin gets: the execution context, its state and the command's descriptors. */
export interface BuiltinContext {
  readonly interpreter: ExecContext;
  readonly state: ShellState;
  readonly fds: Fds;
  readonly stdout: OutputSink;
  readonly stderr: OutputSink;
  readonly stdin: InputSource;
  readonly inLoop: boolean;
  error(message: string): void;
}

export interface ExecContext {
  readonly state: ShellState;
  readonly expander: Expander;
  /** The gate as the interpreter uses it: denials recorded, process substitutions served. */
  readonly access: ShellAccess;
  /** The host's gate as given: for probes that must not be recorded (PATH candidates). */
  readonly rawAccess: ShellAccess;
  readonly runner: ExternalRunner;
  readonly onDenial: (denial: Denial) => void;
  readonly substitutions: ProcessSubstitutions;
  readonly jobs: Jobs;
  readonly cleanups: (() => Promise<void> | void)[];
  readonly signal: AbortSignal | undefined;
  readonly deadline: number | undefined;
  readonly writeMeter: WriteMeter | undefined;
  /** Aliases being expanded now (never expanded again inside themselves). */
  readonly expandingAliases: Set<string>;

  // The walk's position and per-command counters (see the header).
  code: Code;
  line: number;
  conditionDepth: number;
  loopDepth: number;
  currentFds: Fds;
  lastSubstitutionStatus: number | null;
  traceLevel: number;
  inTrap: boolean;
  readonly concurrent: boolean;

  /** Report `message` as bash would: `bash: line N: message`. */
  error(fds: Fds, message: string): void;
  setLine(offset: number): void;
  script(script: Script, fds: Fds): Promise<number>;
  list(list: List, fds: Fds): Promise<number>;
  command(command: Command, fds: Fds): Promise<number>;
  runSource(source: string, fds: Fds, topLevel?: boolean, lineBase?: number): Promise<number>;
  runTrap(name: string, fds: Fds): Promise<number>;
  /** A subshell (see `Interpreter.fork`). */
  fork(concurrent?: boolean): ExecContext;
  subshellRun(body: () => Promise<number>, fds?: Fds): Promise<number>;
  builtinContext(fds: Fds): BuiltinContext;
  isBuiltin(name: string): boolean;
  invoke(argv: string[], fds: Fds, options: InvokeOptions): Promise<number>;
  resolveCommand(name: string): Promise<CommandLocation>;
  optionSet(name: string): boolean;
  isSet(operand: string): boolean;
  functionOrigin(fn: FunctionDefinition): SourceOrigin;
  functionText(fn: FunctionDefinition): string;
  enterSource(origin: SourceOrigin): SourceOrigin & { readonly line: number };
  leaveSource(saved: SourceOrigin & { readonly line: number }): void;
}
