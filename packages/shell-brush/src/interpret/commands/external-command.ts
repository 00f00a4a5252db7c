/**
 * Starting a command that is neither a function nor a builtin: one of the carried
 * utilities in-process, else a program found on `PATH` through the `ExternalRunner`.
 * Both are exec-checked first (`checkExec`); a refusal fails that command with status
 * 126 and `<name>: execution denied: <reason>`, and the script goes on.
 *
 * A utility runs in-process only for what it carries (`checkInProcess`, decided from the
 * arguments before anything is read or written); anything else (`ls --color`, `sort -z`,
 * `wc --version`) runs the host's program of that name with the same argv, descriptors
 * and environment, found and exec-checked exactly as `/usr/bin/ls` would be (ADR 0015).
 * Where `PATH` has no such program, the utility refuses the option itself (status 1 or 2).
 */

import { type Denial, errnoText, type GateRefusal } from "@agent-bridle/core";
import { checkInProcess, UTILITIES } from "@agent-bridle/coreutils";
import type { ExecContext } from "../exec-context.js";
import { describeError } from "../io/describe-error.js";
import type { ExternalDescriptor } from "../io/external.js";
import { servingAccess } from "../io/gate.js";
import {
  BrokenPipe,
  type Fds,
  InputSource,
  type OutputSink,
  sinkOf,
  sourceOf,
  WriteError,
} from "../io/io.js";
import { resolveCommand } from "./command-search.js";

/** The carried utilities that run in-process (`echo` is the builtin's). */
export const CARRIED_UTILITIES: ReadonlySet<string> = new Set(["cat", "head", "ls", "sort", "wc"]);

/** True when `name` runs as an in-process utility (a bare name, no function or builtin). */
export function isCarried(name: string): boolean {
  return CARRIED_UTILITIES.has(name);
}

/** `<name>: execution denied: <reason>` (reference §5.3): what a refused command prints. */
export function executionDeniedText(name: string, denial: Denial): string {
  // Core's reasons read `denied: …`; the message already says so.
  return `${name}: execution denied: ${denial.reason.replace(/^denied: /, "")}\n`;
}

function refused(interpreter: ExecContext, fds: Fds, name: string, refusal: GateRefusal): number {
  if ("denial" in refusal) {
    sinkOf(fds, 2).write(executionDeniedText(name, refusal.denial));
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
  interpreter: ExecContext,
  argv: readonly string[],
  env: Record<string, string>,
  fds: Fds,
): Promise<number> {
  const name = argv[0] as keyof typeof UTILITIES;
  const allowed = await interpreter.access.checkExec(name, name, argv);
  if (!allowed.ok) return refused(interpreter, fds, name, allowed);
  const stdout = sinkOf(fds, 1);
  const stderr = sinkOf(fds, 2);
  const input = sourceOf(fds, 0);
  // SIGPIPE for an in-process utility: once its reader has gone, its output is dropped and
  // its input ends, so it finishes; its status is then 141.
  let broken = false;
  const guarded = (write: (chunk: Uint8Array) => void) => (chunk: Uint8Array) => {
    if (broken) return;
    try {
      write(chunk);
    } catch (error) {
      if (!(error instanceof BrokenPipe)) throw error;
      broken = true;
    }
  };
  async function* stdin(): AsyncGenerator<Uint8Array> {
    for await (const chunk of input.chunks()) {
      if (broken) return;
      yield chunk;
    }
  }
  try {
    const status = await UTILITIES[name]({
      argv: argv.slice(1),
      stdin: stdin(),
      stdout: { write: guarded((chunk) => stdout.write(chunk)) },
      stderr: { write: guarded((chunk) => writeQuietly(stderr, chunk)) },
      cwd: interpreter.state.cwd,
      env,
      // Not the recording gate: the utility records each refusal it acts on, once.
      opener: servingAccess(interpreter.rawAccess, interpreter.substitutions),
      onDenial: interpreter.onDenial,
    });
    return broken ? 141 : status;
  } catch (error) {
    if (error instanceof BrokenPipe) return 141;
    if (!(error instanceof WriteError)) throw error;
    writeQuietly(stderr, Buffer.from(`${name}: write error: ${describeError(error.cause)}\n`));
    return 1;
  }
}

/**
 * The descriptors above 2 the script arranged (`exec 3<f`, `cmd 4>&1`): a program gets
 * them at the same numbers, as a child of bash inherits them — input as the bytes left to
 * read, output streamed to the shell's sink. Process substitutions already there win.
 */
function addArrangedDescriptors(descriptors: Map<number, ExternalDescriptor>, fds: Fds): void {
  for (const [fd, channel] of fds) {
    if (fd < 3 || descriptors.has(fd)) continue;
    if (channel instanceof InputSource) {
      if (channel.isComplete()) descriptors.set(fd, { input: channel.readAll() });
    } else descriptors.set(fd, { output: (chunk) => writeQuietly(channel, chunk) });
  }
}

/** Run `argv` as a carried utility or an external program. */
export async function runExternal(
  interpreter: ExecContext,
  argv: string[],
  env: Record<string, string>,
  fds: Fds,
  /** Give the program `_` as its own path (not under `exec`, as in bash). */
  namePath = true,
): Promise<number> {
  const name = argv[0] as string;
  if (isCarried(name)) {
    if (checkInProcess(name, argv.slice(1)).ok) return runCarried(interpreter, argv, env, fds);
    const host = await resolveCommand(interpreter, name);
    if ("status" in host) return runCarried(interpreter, argv, env, fds);
    return runProgram(interpreter, host.path, argv, env, fds, namePath);
  }
  const found = await resolveCommand(interpreter, name);
  if ("status" in found) {
    interpreter.error(fds, found.message);
    return found.status;
  }
  return runProgram(interpreter, found.path, argv, env, fds, namePath);
}

/** Exec-check the program found at `path` for `argv[0]` and run it. */
async function runProgram(
  interpreter: ExecContext,
  path: string,
  argv: string[],
  env: Record<string, string>,
  fds: Fds,
  namePath: boolean,
): Promise<number> {
  const name = argv[0] as string;
  const found = { path };
  const allowed = await interpreter.access.checkExec(name, found.path, argv);
  if (!allowed.ok) return refused(interpreter, fds, name, allowed);
  const stdout = sinkOf(fds, 1);
  const stderr = sinkOf(fds, 2);
  const descriptors = interpreter.substitutions.descriptors(argv);
  addArrangedDescriptors(descriptors, fds);
  const input = sourceOf(fds, 0);
  // A pipe whose reader has gone stops the program as SIGPIPE would: killed, status 141.
  const stop = new AbortController();
  const outer = interpreter.signal;
  const forward = () => stop.abort();
  outer?.addEventListener("abort", forward);
  if (outer?.aborted) stop.abort();
  let broken = false;
  const output = (sink: OutputSink) => (chunk: Uint8Array) => {
    if (broken) return;
    try {
      writeQuietly(sink, chunk);
    } catch (error) {
      if (!(error instanceof BrokenPipe)) throw error;
      broken = true;
      stop.abort();
    }
  };
  try {
    const result = await interpreter.runner.run({
      file: found.path,
      argv,
      // A program sees `_` set to its own path name (bash exports it so).
      env: namePath ? { ...env, _: found.path } : env,
      cwd: interpreter.state.cwd,
      // A pipe streams into the program as its writer produces (`yes | grep -m1 y` ends).
      stdin: input.isComplete() ? input.readAll() : input.chunks(),
      stdout: output(stdout),
      stderr: output(stderr),
      ...(descriptors.size === 0 ? {} : { descriptors }),
      signal: stop.signal,
    });
    return broken ? 141 : result.status;
  } finally {
    outer?.removeEventListener("abort", forward);
  }
}
