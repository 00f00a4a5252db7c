/**
 * Pipelines: the stages run concurrently, each in a forked state, joined by pipes;
 * `PIPESTATUS` and `pipefail` as bash.
 */
import type { Command, Pipeline } from "@agent-bridle/bash";
import type { ExecContext } from "../exec-context.js";
import { type Fds, InputSource, PipeSink } from "../io/io.js";
import { newVariable, type Variable } from "../state/state.js";
import { runDebugTrap } from "./debug-trap.js";

/** A variable with no attribute and no scalar value (as `setPipeStatus` makes `PIPESTATUS`). */
function plainArray(variable: Variable): boolean {
  return (
    variable.value === null &&
    !variable.assoc &&
    !variable.exported &&
    !variable.readonly &&
    !variable.integer &&
    !variable.lower &&
    !variable.upper &&
    !variable.nameref &&
    !variable.declaredOnly
  );
}

function sameStatuses(array: Map<string, string> | null, statuses: readonly number[]): boolean {
  if (array === null || array.size !== statuses.length) return false;
  for (let index = 0; index < statuses.length; index += 1)
    if (array.get(String(index)) !== String(statuses[index])) return false;
  return true;
}

export function setPipeStatus(interpreter: ExecContext, statuses: readonly number[]): void {
  const state = interpreter.state;
  const variable = state.lookupRaw("PIPESTATUS");
  if (variable?.readonly) return;
  const global = state.scopes[0] as Map<string, Variable>;
  const current = global.get("PIPESTATUS");
  const reuse =
    current !== undefined &&
    (variable === undefined || variable === current) &&
    plainArray(current);
  // Most commands leave it as it was (`0`): nothing to replace.
  if (reuse && sameStatuses(current.array, statuses)) return;
  const values = new Map<string, string>();
  for (let index = 0; index < statuses.length; index += 1)
    values.set(String(index), String(statuses[index]));
  if (variable === undefined || variable === current) {
    // No function-local PIPESTATUS: the global one is replaced by a fresh array (as
    // `setArray` makes once it is dropped); one without attributes is as good as fresh.
    if (reuse) current.array = values;
    else {
      const fresh = newVariable(null);
      fresh.array = values;
      global.set("PIPESTATUS", fresh);
    }
    return;
  }
  global.delete("PIPESTATUS");
  state.setArray("PIPESTATUS", values, false);
}

/**
 * All stages at once, each in a forked state, joined by pipes: a stage reads what the
 * previous one writes as it is written. When a stage ends, its output pipe ends (the next
 * stage sees end of input) and its input pipe closes (the previous stage's next write is
 * SIGPIPE: status 141).
 */
async function stages(interpreter: ExecContext, pipeline: Pipeline, fds: Fds): Promise<number[]> {
  const commands = pipeline.commands;
  const pipes = commands.slice(1).map(() => new InputSource(undefined, true));
  const children: { child: ExecContext; stageFds: Fds }[] = [];
  for (const [index, command] of commands.entries()) {
    const stageFds: Fds = new Map(fds);
    const input = index === 0 ? undefined : pipes[index - 1];
    if (input !== undefined) stageFds.set(0, input);
    const output = pipes[index];
    if (output !== undefined) {
      const sink = new PipeSink(output);
      stageFds.set(1, sink);
      if (pipeline.operators[index] === "|&") stageFds.set(2, sink);
    }
    // The DEBUG trap runs for each stage in this shell (the stage's subshell keeps it
    // only under \`set -T\`).
    if (interpreter.state.traps.has("DEBUG") && !interpreter.state.options.functrace)
      await runDebugTrap(interpreter, command, stageFds);
    // `shopt -s lastpipe` (no job control here): the last stage runs in this shell, so
    // `echo hi | read v` sets v.
    const last = index === commands.length - 1 && interpreter.state.shopt.has("lastpipe");
    children.push({ child: last ? interpreter : interpreter.fork(true), stageFds });
  }
  return Promise.all(
    commands.map(async (command, index) => {
      const { child, stageFds } = children[index] as (typeof children)[number];
      try {
        if (child === interpreter) return await interpreter.command(command, stageFds);
        return await child.subshellRun(() => child.command(command, stageFds), stageFds);
      } finally {
        pipes[index]?.end();
        pipes[index - 1]?.closeReader();
      }
    }),
  );
}

/** Run a pipeline (`!` negates); its status. */
export async function runPipeline(
  interpreter: ExecContext,
  pipeline: Pipeline,
  fds: Fds,
): Promise<number> {
  if (pipeline.negated) interpreter.conditionDepth += 1;
  try {
    let status: number;
    if (pipeline.commands.length === 1) {
      status = await interpreter.command(pipeline.commands[0] as Command, fds);
      setPipeStatus(interpreter, [status]);
    } else {
      const statuses = await stages(interpreter, pipeline, fds);
      setPipeStatus(interpreter, statuses);
      status = statuses[statuses.length - 1] ?? 0;
      if (interpreter.state.options.pipefail) {
        for (const value of statuses) if (value !== 0) status = value;
      }
    }
    return pipeline.negated ? (status === 0 ? 1 : 0) : status;
  } finally {
    if (pipeline.negated) interpreter.conditionDepth -= 1;
  }
}
