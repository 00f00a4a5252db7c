/**
 * Simple commands: words expanded, assignments (temporary for builtins, functions and
 * programs), then a function, a builtin, a carried utility or a program — in that order.
 * `exec` never replaces the shell: with only redirections it changes this shell's
 * descriptors; with a command it runs it (gated like any) and ends the script.
 */
import type { SimpleCommand } from "@agent-bridle/bash";
import {
  type DeclarationOperand,
  operandText,
  wordOperand,
} from "../builtins/declaration-operand.js";
import { type Builtin, DECLARATION_BUILTINS, enabledBuiltin } from "../builtins/table.js";
import type { ExecContext } from "../exec-context.js";
import { type AssignmentNode, assignValue } from "../expand/assignment.js";
import { describeError } from "../io/describe-error.js";
import { type Fds, WriteError } from "../io/io.js";
import { ExitSignal } from "../signals.js";
import { assignmentStatementError, commandAssignment } from "../state/readonly-assignment.js";
import { ReadonlyError } from "../state/state.js";
import { expandAliases } from "./alias-expansion.js";
import { runExternal } from "./external-command.js";
import { callFunction } from "./function-call.js";
import { applyRedirects, withRedirects } from "./redirect.js";
import { trace } from "./trace.js";

/** Run one simple command (process substitutions settle in `Interpreter.command`). */
export async function runSimple(
  interpreter: ExecContext,
  command: SimpleCommand,
  fds: Fds,
): Promise<number> {
  const aliased = expandAliases(interpreter, command);
  if (aliased === null) return simpleRun(interpreter, command, fds);
  for (const name of aliased.names) interpreter.expandingAliases.add(name);
  try {
    return await interpreter.runSource(aliased.text, fds, false, interpreter.line - 1);
  } finally {
    for (const name of aliased.names) interpreter.expandingAliases.delete(name);
  }
}
async function simpleRun(
  interpreter: ExecContext,
  command: SimpleCommand,
  fds: Fds,
): Promise<number> {
  interpreter.lastSubstitutionStatus = null;
  const argv: string[] = [];
  // Assignment words appear only after a declaration builtin's name (the parser's rule).
  let operands: DeclarationOperand[] | null = null;
  for (const word of command.words) {
    if (word.type === "Assignment") {
      operands ??= argv.slice(1).map(wordOperand);
      const operand = await assignmentOperand(interpreter, word);
      operands.push(operand);
      argv.push(operandText(operand));
      continue;
    }
    const fields = await interpreter.expander.fields(word);
    argv.push(...fields);
    if (operands !== null) operands.push(...fields.map(wordOperand));
  }
  if (argv.length === 0) {
    try {
      for (const assignment of command.assignments) {
        await assignValue(interpreter, assignment, (name, value) => {
          trace(interpreter, fds, [`${name}=${value}`], true);
          const variable = interpreter.state.set(name, value);
          if (interpreter.state.options.allexport) variable.exported = true;
        });
      }
    } catch (error) {
      assignmentStatementError(interpreter, fds, error);
    }
    // A statement of assignments alone has no last argument: `$_` is empty after it.
    if (command.assignments.length > 0) interpreter.state.lastArgument = "";
    const status = interpreter.lastSubstitutionStatus ?? 0;
    return withRedirects(interpreter, command.redirects, fds, async () => status);
  }
  const lastArgument = argv[argv.length - 1] ?? "";
  try {
    return await invokeSimple(interpreter, command, argv, operands, fds);
  } finally {
    interpreter.state.lastArgument = lastArgument;
    // Setting `$_` drops an `export` the script gave it.
    const underscore = interpreter.state.lookupRaw("_");
    if (underscore !== undefined) underscore.exported = false;
  }
}

async function invokeSimple(
  interpreter: ExecContext,
  command: SimpleCommand,
  argv: string[],
  operands: readonly DeclarationOperand[] | null,
  fds: Fds,
): Promise<number> {
  const name = argv[0] as string;
  if (interpreter.state.options.xtrace) {
    for (const assignment of command.assignments) {
      if (assignment.value?.type === "Word")
        trace(
          interpreter,
          fds,
          [`${assignment.name}=${await interpreter.expander.string(assignment.value)}`],
          true,
        );
    }
    trace(interpreter, fds, argv);
    // `export` and `readonly` (however reached) trace each assignment they make again.
    const declarer = argv.find((word) => word !== "command" && word !== "builtin");
    if (declarer === "export" || declarer === "readonly")
      for (const word of argv.slice(argv.indexOf(declarer) + 1))
        if (/^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?\+?=/s.test(word))
          trace(interpreter, fds, [word], true);
  }
  if (name === "exec") return exec(interpreter, argv, command, fds);
  const fn = interpreter.state.functions.get(name);
  const builtin = enabledBuiltin(interpreter.state, name);
  if (fn === undefined && builtin === undefined) {
    const env = interpreter.state.exportedEnv();
    for (const assignment of command.assignments)
      await commandAssignment(interpreter, fds, () =>
        assignValue(interpreter, assignment, (key, value) => {
          if (interpreter.state.lookup(key)?.readonly) throw new ReadonlyError(key);
          env[key] = value;
        }),
      );
    return withRedirects(interpreter, command.redirects, fds, (redirected) =>
      runExternal(interpreter, argv, env, redirected),
    );
  }
  // Temporary assignments for builtins and functions.
  const saved: [string, string | undefined, boolean][] = [];
  for (const assignment of command.assignments) {
    await commandAssignment(interpreter, fds, () =>
      assignValue(interpreter, assignment, (key, value) => {
        const before = interpreter.state.lookup(key);
        if (before?.readonly) throw new ReadonlyError(key);
        saved.push([key, interpreter.state.get(key), before?.exported ?? false]);
        interpreter.state.set(key, value).exported = true;
      }),
    );
  }
  try {
    return await withRedirects(interpreter, command.redirects, fds, async (redirected) => {
      if (fn !== undefined) return callFunction(interpreter, fn, argv, redirected);
      const declaration = operands === null ? undefined : DECLARATION_BUILTINS.get(name);
      const run: Builtin =
        declaration === undefined || operands === null
          ? (builtin as Builtin)
          : (context) => declaration(context, operands);
      return runBuiltin(interpreter, run, name, argv.slice(1), redirected);
    });
  } finally {
    if (builtin !== undefined || fn !== undefined) {
      for (const [key, value, exported] of saved.reverse()) {
        if (value === undefined) interpreter.state.unset(key);
        else interpreter.state.set(key, value).exported = exported;
      }
    }
  }
}

async function exec(
  interpreter: ExecContext,
  argv: string[],
  command: SimpleCommand,
  fds: Fds,
): Promise<number> {
  if (argv.length === 1) {
    const applied = await applyRedirects(interpreter, command.redirects, fds);
    if (applied === null) return 1;
    for (const sink of applied.close) interpreter.cleanups.push(() => sink.close());
    for (const fd of [...fds.keys()]) if (!applied.fds.has(fd)) fds.delete(fd);
    for (const [fd, channel] of applied.fds) fds.set(fd, channel);
    return 0;
  }
  const status = await withRedirects(interpreter, command.redirects, fds, (redirected) =>
    invoke(interpreter, argv.slice(1), redirected, {
      functions: false,
      externals: true,
      exec: true,
    }),
  );
  throw new ExitSignal(status);
}

async function runBuiltin(
  interpreter: ExecContext,
  builtin: Builtin,
  name: string,
  args: string[],
  fds: Fds,
): Promise<number> {
  const context = interpreter.builtinContext(fds);
  if (fds.has(1)) {
    try {
      return await builtin(context, args);
    } catch (error) {
      if (!(error instanceof WriteError)) throw error;
      interpreter.error(fds, `${name}: write error: ${describeError(error.cause)}`);
      return 1;
    }
  }
  let wrote = false;
  const closed = {
    ...context,
    stdout: {
      write: () => {
        wrote = true;
      },
    },
  };
  const status = await builtin(closed, args);
  if (!wrote) return status;
  interpreter.error(fds, `${name}: write error: Bad file descriptor`);
  return 1;
}

export async function invoke(
  interpreter: ExecContext,
  argv: string[],
  fds: Fds,
  options: { readonly functions: boolean; readonly externals: boolean; readonly exec?: boolean },
): Promise<number> {
  const name = argv[0] as string;
  const fn = options.functions ? interpreter.state.functions.get(name) : undefined;
  if (fn !== undefined) return callFunction(interpreter, fn, argv, fds);
  const builtin = enabledBuiltin(interpreter.state, name);
  if (builtin !== undefined) return builtin(interpreter.builtinContext(fds), argv.slice(1));
  if (!options.externals) return 1;
  return runExternal(interpreter, argv, interpreter.state.exportedEnv(), fds, !options.exec);
}

/** An assignment word of a declaration builtin, its value and subscript expanded now. */
async function assignmentOperand(
  interpreter: ExecContext,
  assignment: AssignmentNode,
): Promise<DeclarationOperand> {
  if (assignment.value !== null && assignment.value.type === "ArrayLiteral")
    return { kind: "array", node: assignment };
  const value =
    assignment.value === null ? "" : await interpreter.expander.assignment(assignment.value);
  const index =
    assignment.index === null ? null : await interpreter.expander.string(assignment.index);
  return { kind: "assignment", name: assignment.name, index, append: assignment.append, value };
}
