/**
 * The synchronous path: commands that never wait — `(( ))`, `for ((;;))`, assignments of
 * literal text and `$((…))`, and `while`/`until`/`if`/`{ }` built only of them — run
 * here without a promise turn per node (the async walk costs several per command, which
 * made a counting loop ten times slower than bash). Each step mirrors the async one it
 * stands for (`Interpreter.command`, `andOr`, `runPipeline`, `runCompound`, `runSimple`):
 * the deadline check, `LINENO`, `BASH_COMMAND`, `PIPESTATUS`, `$?`, `errexit` and the
 * error reports happen in the same order. Keep the two in step.
 *
 * It is taken only when nothing could tell the difference: no other code of the run can
 * interleave (no pipeline stage or background job, none running), and no DEBUG or ERR
 * trap or `set -x` asks for work the path does not do.
 */
import type {
  AndOr,
  Command,
  CompoundCommand,
  List,
  Pipeline,
  SimpleCommand,
  Word,
  WordPart,
} from "@agent-bridle/bash";
import type { ExecContext } from "../exec-context.js";
import { scalarValue } from "../expand/assignment.js";
import { literalText } from "../expand/expand.js";
import type { Fds } from "../io/io.js";
import { caughtByLoop, ExitSignal, ExpansionError, LineAbort } from "../signals.js";
import { assignmentStatementError } from "../state/readonly-assignment.js";
import { ReadonlyError } from "../state/state.js";
import { setBashCommand } from "./debug-trap.js";
import { setPipeStatus } from "./pipeline.js";
import { trace } from "./trace.js";

const eligible = new WeakMap<object, boolean>();

function remembered(node: object, decide: () => boolean): boolean {
  let known = eligible.get(node);
  if (known === undefined) {
    known = decide();
    eligible.set(node, known);
  }
  return known;
}

function literalPart(part: WordPart): boolean {
  switch (part.type) {
    case "Literal":
      return !part.value.includes("~");
    case "Escaped":
    case "SingleQuoted":
      return true;
    case "DoubleQuoted":
      return part.parts.every((inner) => inner.type === "Literal");
    case "ArithmeticExpansion":
      return literalText(part.expression.parts) !== null;
    default:
      return false;
  }
}

/** An assignment value whose expansion cannot wait: literal text and `$((literal))`. */
function plainValue(word: Word): boolean {
  return word.parts.every(literalPart);
}

function simpleEligible(command: SimpleCommand): boolean {
  return (
    command.words.length === 0 &&
    command.redirects.length === 0 &&
    command.assignments.length > 0 &&
    command.assignments.every(
      (assignment) =>
        assignment.index === null &&
        (assignment.value === null ||
          (assignment.value.type === "Word" && plainValue(assignment.value))),
    )
  );
}

function compoundEligible(command: CompoundCommand): boolean {
  if (command.redirects.length > 0) return false;
  const body = command.body;
  switch (body.type) {
    case "BraceGroup":
      return listEligible(body.body);
    case "If":
      return (
        body.clauses.every(
          (clause) => listEligible(clause.condition) && listEligible(clause.body),
        ) &&
        (body.elseBody === null || listEligible(body.elseBody))
      );
    case "While":
      return listEligible(body.condition) && listEligible(body.body);
    case "ArithmeticCommand":
      return literalText(body.expression.parts) !== null;
    case "ArithmeticFor":
      return (
        literalText(body.init.parts) !== null &&
        literalText(body.test.parts) !== null &&
        literalText(body.update.parts) !== null &&
        listEligible(body.body)
      );
    default:
      return false;
  }
}

function commandEligible(command: Command): boolean {
  return remembered(command, () => {
    if (command.type === "SimpleCommand") return simpleEligible(command);
    if (command.type === "CompoundCommand") return compoundEligible(command);
    return false;
  });
}

function listEligible(list: List): boolean {
  return remembered(list, () =>
    list.statements.every(
      (statement) =>
        !statement.background &&
        statement.andOr.pipelines.every(
          (pipeline) =>
            pipeline.commands.length === 1 && commandEligible(pipeline.commands[0] as Command),
        ),
    ),
  );
}

/** True when `command` may run on the synchronous path now. */
export function runsSynchronously(interpreter: ExecContext, command: Command): boolean {
  const state = interpreter.state;
  return (
    !interpreter.concurrent &&
    !state.options.xtrace &&
    !state.traps.has("DEBUG") &&
    !state.traps.has("ERR") &&
    !interpreter.jobs.running &&
    commandEligible(command)
  );
}

/** What `Interpreter.command` does with an error out of a command: report it, or rethrow. */
export function commandError(interpreter: ExecContext, fds: Fds, error: unknown): number {
  if (error instanceof ExpansionError) {
    interpreter.error(fds, error.message);
    if (error.kind === "command") return 1;
    if (error.kind === "line") throw new LineAbort(1);
    throw new ExitSignal(1);
  }
  if (error instanceof ReadonlyError) {
    interpreter.error(fds, error.message);
    return 1;
  }
  throw error;
}

/** `Interpreter.command` for an eligible command (process substitutions cannot arise). */
export function commandSync(interpreter: ExecContext, command: Command, fds: Fds): number {
  if (
    interpreter.signal?.aborted ||
    (interpreter.deadline !== undefined && Date.now() > interpreter.deadline)
  )
    throw new ExitSignal(124);
  interpreter.setLine(command.start);
  interpreter.currentFds = fds;
  try {
    if (command.type === "SimpleCommand") {
      if (!interpreter.inTrap)
        setBashCommand(interpreter, interpreter.code.text.slice(command.start, command.end));
      return assignments(interpreter, command, fds);
    }
    const saved = interpreter.currentFds;
    try {
      return compound(interpreter, command as CompoundCommand, fds);
    } finally {
      interpreter.currentFds = saved;
    }
  } catch (error) {
    return commandError(interpreter, fds, error);
  }
}

function listSync(interpreter: ExecContext, list: List, fds: Fds): number {
  let status = 0;
  for (const statement of list.statements) status = andOrSync(interpreter, statement.andOr, fds);
  return status;
}

function andOrSync(interpreter: ExecContext, andOr: AndOr, fds: Fds): number {
  const state = interpreter.state;
  const pipelines = andOr.pipelines;
  let status = 0;
  for (let index = 0; index < pipelines.length; index += 1) {
    if (index > 0) {
      const operator = andOr.operators[index - 1];
      if (operator === "&&" && status !== 0) continue;
      if (operator === "||" && status === 0) continue;
    }
    const pipeline = pipelines[index] as Pipeline;
    const last = index === pipelines.length - 1;
    if (!last) interpreter.conditionDepth += 1;
    try {
      status = pipelineSync(interpreter, pipeline, fds);
    } finally {
      if (!last) interpreter.conditionDepth -= 1;
    }
    state.lastStatus = status;
    // No ERR trap is set (else this path is not taken); `errexit` as `andOr`.
    if (last && status !== 0 && interpreter.conditionDepth === 0 && !pipeline.negated)
      if (state.options.errexit) throw new ExitSignal(status);
  }
  return status;
}

const ZERO: readonly number[] = [0];
const ONE: readonly number[] = [1];

function pipelineSync(interpreter: ExecContext, pipeline: Pipeline, fds: Fds): number {
  if (pipeline.negated) interpreter.conditionDepth += 1;
  try {
    const status = commandSync(interpreter, pipeline.commands[0] as Command, fds);
    setPipeStatus(interpreter, status === 0 ? ZERO : status === 1 ? ONE : [status]);
    return pipeline.negated ? (status === 0 ? 1 : 0) : status;
  } finally {
    if (pipeline.negated) interpreter.conditionDepth -= 1;
  }
}

function expandValue(interpreter: ExecContext, word: Word): string {
  let text = "";
  for (const part of word.parts) {
    if (part.type === "ArithmeticExpansion")
      text += String(interpreter.expander.evaluate(literalText(part.expression.parts) as string));
    else if (part.type === "DoubleQuoted") text += literalText(part.parts) as string;
    else text += (part as { readonly value: string }).value;
  }
  return text;
}

/** `runSimple` for assignments alone: each assigned in turn; status 0. */
function assignments(interpreter: ExecContext, command: SimpleCommand, fds: Fds): number {
  const state = interpreter.state;
  interpreter.lastSubstitutionStatus = null;
  try {
    for (const assignment of command.assignments) {
      const value = assignment.value;
      const raw = value === null ? "" : expandValue(interpreter, value as Word);
      const integer = state.lookup(assignment.name)?.integer ?? false;
      const old = state.get(assignment.name);
      const stored = scalarValue(interpreter, assignment, integer, raw, old);
      trace(interpreter, fds, [`${assignment.name}=${stored}`], true);
      const variable = state.set(assignment.name, stored);
      if (state.options.allexport) variable.exported = true;
    }
  } catch (error) {
    assignmentStatementError(interpreter, fds, error);
  }
  // A statement of assignments alone has no last argument: `$_` is empty after it.
  state.lastArgument = "";
  return 0;
}

function condition(interpreter: ExecContext, list: List, fds: Fds): number {
  interpreter.conditionDepth += 1;
  try {
    return listSync(interpreter, list, fds);
  } finally {
    interpreter.conditionDepth -= 1;
  }
}

function loopCondition(
  interpreter: ExecContext,
  list: List,
  fds: Fds,
): "break" | "continue" | number {
  interpreter.conditionDepth += 1;
  try {
    return loopBody(interpreter, list, fds);
  } finally {
    interpreter.conditionDepth -= 1;
  }
}

function loopBody(interpreter: ExecContext, list: List, fds: Fds): "break" | "continue" | number {
  interpreter.loopDepth += 1;
  try {
    return listSync(interpreter, list, fds);
  } catch (signal) {
    return caughtByLoop(signal);
  } finally {
    interpreter.loopDepth -= 1;
  }
}

function compound(interpreter: ExecContext, command: CompoundCommand, fds: Fds): number {
  const body = command.body;
  const expander = interpreter.expander;
  switch (body.type) {
    case "BraceGroup":
      return listSync(interpreter, body.body, fds);
    case "If": {
      for (const clause of body.clauses)
        if (condition(interpreter, clause.condition, fds) === 0)
          return listSync(interpreter, clause.body, fds);
      return body.elseBody === null ? 0 : listSync(interpreter, body.elseBody, fds);
    }
    case "While": {
      let status = 0;
      for (;;) {
        const test = loopCondition(interpreter, body.condition, fds);
        if (test === "break") break;
        if (test === "continue") continue;
        if ((test === 0) === body.until) break;
        const result = loopBody(interpreter, body.body, fds);
        if (result === "break") break;
        if (typeof result === "number") status = result;
      }
      return status;
    }
    case "ArithmeticFor": {
      let status = 0;
      expander.evaluate(literalText(body.init.parts) as string);
      const testText = literalText(body.test.parts) as string;
      const updateText = literalText(body.update.parts) as string;
      for (;;) {
        if (testText.trim() !== "" && expander.evaluate(testText) === 0n) break;
        const result = loopBody(interpreter, body.body, fds);
        if (result === "break") break;
        if (typeof result === "number") status = result;
        expander.evaluate(updateText);
      }
      return status;
    }
    case "ArithmeticCommand": {
      const text = literalText(body.expression.parts) as string;
      try {
        return expander.evaluate(text) === 0n ? 1 : 0;
      } catch (error) {
        if (error instanceof ExpansionError && error.kind !== "fatal") {
          interpreter.error(fds, `((: ${error.message}`);
          return 1;
        }
        throw error;
      }
    }
    default:
      throw new Error(`not a synchronous command: ${body.type}`);
  }
}
