/**
 * Pipelines: each stage runs in a forked state. Stages run one after another, the
 * previous stage's output buffered as the next one's input (so an endless producer such
 * as `yes | head` does not end); `PIPESTATUS` and `pipefail` as bash.
 */
import type { Command, Pipeline } from "../parse/ast-command.js";
import { runDebugTrap } from "./debug-trap.js";
import type { Interpreter } from "./interpreter.js";
import { type Fds, InputSource, MemorySink, sourceOf } from "./io.js";

function setPipeStatus(interpreter: Interpreter, statuses: readonly number[]): void {
  const state = interpreter.state;
  const variable = state.lookupRaw("PIPESTATUS");
  if (variable?.readonly) return;
  state.scopes[0]?.delete("PIPESTATUS");
  state.setArray(
    "PIPESTATUS",
    new Map(statuses.map((value, index) => [String(index), String(value)])),
    false,
  );
}

async function stages(interpreter: Interpreter, pipeline: Pipeline, fds: Fds): Promise<number[]> {
  const statuses: number[] = [];
  let input = sourceOf(fds, 0);
  for (const [index, command] of pipeline.commands.entries()) {
    const last = index === pipeline.commands.length - 1;
    const stageFds: Fds = new Map(fds);
    stageFds.set(0, input);
    const capture = new MemorySink();
    if (!last) {
      stageFds.set(1, capture);
      if (pipeline.operators[index] === "|&") stageFds.set(2, capture);
    }
    // The DEBUG trap runs for each stage in this shell (the stage's subshell keeps it
    // only under `set -T`).
    if (interpreter.state.traps.has("DEBUG") && !interpreter.state.options.functrace)
      await runDebugTrap(interpreter, command, stageFds);
    const child = interpreter.fork();
    statuses.push(await child.subshellRun(() => child.command(command, stageFds), stageFds));
    input = new InputSource(capture.bytes());
  }
  return statuses;
}

/** Run a pipeline (`!` negates); its status. */
export async function runPipeline(
  interpreter: Interpreter,
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
