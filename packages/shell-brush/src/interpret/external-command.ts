/**
 * Starting a command that is neither a function nor a builtin: one of the carried
 * utilities in-process, else a program found on `PATH` through the `ExternalRunner`.
 * Both are exec-checked first (`checkExec`); a refusal fails that command with status
 * 126 and `<name>: execution denied: <reason>`, and the script goes on.
 */

import type { GateRefusal } from "@agent-bridle/coreutils";
import { UTILITIES } from "@agent-bridle/coreutils";
import { resolveCommand } from "./command-search.js";
import { describeError, errnoText } from "./errno-text.js";
import type { Interpreter } from "./interpreter.js";
import { type Fds, type OutputSink, sinkOf, sourceOf, WriteError } from "./io.js";

/** The carried utilities that run in-process (`echo` is the builtin's). */
export const CARRIED_UTILITIES: ReadonlySet<string> = new Set(["cat", "head", "ls", "sort", "wc"]);

/** True when `name` runs as an in-process utility (a bare name, no function or builtin). */
export function isCarried(name: string): boolean {
  return CARRIED_UTILITIES.has(name);
}

function refused(interpreter: Interpreter, fds: Fds, name: string, refusal: GateRefusal): number {
  if ("denial" in refusal) {
    sinkOf(fds, 2).write(`${name}: execution denied: ${refusal.denial.reason}\n`);
    return 126;
  }
  interpreter.error(fds, `${name}: ${errnoText(refusal.errno)}`);
  return refusal.errno === "ENOENT" ? 127 : 126;
}

/** An external command's output: a failing sink drops it (the command saw a pipe). */
function writeQuietly(sink: OutputSink, chunk: Uint8Array): void {
  try {
    sink.write(chunk);
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
  }
}

async function runCarried(
  interpreter: Interpreter,
  argv: readonly string[],
  env: Record<string, string>,
  fds: Fds,
): Promise<number> {
  const name = argv[0] as keyof typeof UTILITIES;
  const allowed = await interpreter.access.checkExec(name, name);
  if (!allowed.ok) return refused(interpreter, fds, name, allowed);
  const stdout = sinkOf(fds, 1);
  const stderr = sinkOf(fds, 2);
  const input = sourceOf(fds, 0);
  try {
    return await UTILITIES[name]({
      argv: argv.slice(1),
      stdin: (async function* () {
        const rest = input.readAll();
        if (rest.length > 0) yield rest;
      })(),
      stdout: { write: (chunk) => stdout.write(chunk) },
      stderr: { write: (chunk) => writeQuietly(stderr, chunk) },
      cwd: interpreter.state.cwd,
      env,
      opener: interpreter.access,
      onDenial: interpreter.onDenial,
    });
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
    writeQuietly(stderr, Buffer.from(`${name}: write error: ${describeError(error.cause)}\n`));
    return 1;
  }
}

/** Run `argv` as a carried utility or an external program. */
export async function runExternal(
  interpreter: Interpreter,
  argv: string[],
  env: Record<string, string>,
  fds: Fds,
): Promise<number> {
  const name = argv[0] as string;
  if (isCarried(name)) return runCarried(interpreter, argv, env, fds);
  const found = await resolveCommand(interpreter, name);
  if ("status" in found) {
    interpreter.error(fds, found.message);
    return found.status;
  }
  const allowed = await interpreter.access.checkExec(name, found.path);
  if (!allowed.ok) return refused(interpreter, fds, name, allowed);
  const stdout = sinkOf(fds, 1);
  const stderr = sinkOf(fds, 2);
  const descriptors = interpreter.substitutions.descriptors(argv);
  const result = await interpreter.runner.run({
    file: found.path,
    argv,
    env,
    cwd: interpreter.state.cwd,
    stdin: sourceOf(fds, 0).readAll(),
    stdout: (chunk) => writeQuietly(stdout, chunk),
    stderr: (chunk) => writeQuietly(stderr, chunk),
    ...(descriptors.size === 0 ? {} : { descriptors }),
    ...(interpreter.signal === undefined ? {} : { signal: interpreter.signal }),
  });
  return result.status;
}
