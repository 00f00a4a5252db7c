import { type FileHandle, open } from "node:fs/promises";
import {
  type Denial,
  FS_AND_EXEC_COVERAGE,
  type OutputSession,
  type ToolContext,
} from "@agent-bridle/core";
import { type Sandbox, type SandboxRunFacts, shellStatus } from "@agent-bridle/sandbox";
import {
  type AdmittedPipeline,
  type AdmittedRedirection,
  type AdmittedScript,
  type AdmittedStage,
  DEV_NULL,
  expandPattern,
  Refused,
} from "./admit.js";

/**
 * The fixed POSIX shell used only as a descriptor trampoline: `exec "$@" 1>&3 …` places
 * opened redirect files on a stage's 0/1/2 and closes the rest, then replaces itself with
 * the admitted program. No caller text ever reaches its script (the program and its
 * arguments are positional parameters). Needed until the funnel takes per-stage stdio.
 */
export const TRAMPOLINE_SHELL = "/bin/sh";

export interface ExecutionContext {
  readonly cx: ToolContext;
  readonly sandbox: Sandbox;
  readonly cwd: string;
  /** Caller variables for the child (the funnel applies the denylist). */
  readonly callerEnv: Readonly<Record<string, string>>;
  /** `performance.now()` value after which the call has timed out. */
  readonly deadline: number;
  readonly maxOutputBytes: number;
  readonly signal: AbortSignal | undefined;
  readonly session: OutputSession | undefined;
  readonly maxGlobMatches: number;
}

export interface ScriptOutcome {
  readonly status: number;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly denials: readonly Denial[];
  /** Facts of the last funnel run (undefined when nothing was spawned). */
  readonly facts: SandboxRunFacts | undefined;
  /** The funnel refused the first pipeline before anything ran (the floor): uncharged. */
  readonly refusedBeforeRun: Denial | undefined;
}

interface Opened {
  readonly handle: FileHandle;
}

type StagePlan =
  | { readonly kind: "run"; readonly argv: readonly string[]; readonly redirects: Redirect[] }
  | { readonly kind: "fail"; readonly status: number; readonly message: string };

/** A redirect with its opened descriptor (`fd` is the host descriptor). */
type Redirect = { readonly target: 0 | 1 | 2; readonly fd: number } | { readonly duplicate: true };

class Output {
  readonly #parts: Buffer[] = [];
  #bytes = 0;
  truncated = false;
  constructor(private readonly cap: number) {}
  add(bytes: Buffer, truncated: boolean): void {
    this.truncated ||= truncated;
    const room = this.cap - this.#bytes;
    if (bytes.length > room) this.truncated = true;
    if (room <= 0 || bytes.length === 0) return;
    const kept = bytes.length <= room ? bytes : bytes.subarray(0, room);
    this.#parts.push(kept);
    this.#bytes += kept.length;
  }
  bytes(): Buffer {
    return Buffer.concat(this.#parts, this.#bytes);
  }
}

const FLAGS_READ = "r";
const FLAGS_WRITE = "a";

/** Opens one redirect target through the mediated open (or the device sink). */
async function openTarget(
  redirection: Extract<AdmittedRedirection, { kind: "file" }>,
  context: ExecutionContext,
): Promise<{ ok: true; handle: FileHandle } | { ok: false; denial: Denial }> {
  const reading = redirection.operator === "<";
  if (redirection.path === DEV_NULL) {
    return { ok: true, handle: await open(DEV_NULL, reading ? FLAGS_READ : FLAGS_WRITE) };
  }
  const decision = reading
    ? await context.cx.openPathRead(redirection.path, { baseDir: context.cwd })
    : await context.cx.openPathWrite(redirection.path, {
        baseDir: context.cwd,
        append: redirection.operator === ">>",
      });
  return decision.ok ? { ok: true, handle: decision.value.handle } : decision;
}

const MISSING = new Set(["FS_NOT_FOUND", "FS_CANNOT_RESOLVE"]);

/**
 * Opens the stage's redirections in source order, as bash does; the first that fails
 * makes the stage fail with status 1 (files opened before it stay created, as in bash).
 */
async function planStage(
  stage: AdmittedStage,
  context: ExecutionContext,
  opened: Opened[],
  denials: Denial[],
): Promise<StagePlan> {
  if (stage.program === undefined) {
    return { kind: "fail", status: 127, message: `${stage.spelled}: command not found` };
  }
  const argv = [stage.program];
  for (const argument of stage.args) {
    if (argument.kind === "fixed") {
      argv.push(argument.value);
      continue;
    }
    try {
      argv.push(...(await expandPattern(argument, context)));
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      denials.push(error.denial);
      return { kind: "fail", status: 1, message: `${argument.source}: ${error.denial.reason}` };
    }
  }
  const redirects: Redirect[] = [];
  for (const redirection of stage.redirections) {
    if (redirection.kind === "duplicate") {
      redirects.push({ duplicate: true });
      continue;
    }
    const result = await openTarget(redirection, context);
    if (!result.ok) {
      const missing = MISSING.has(result.denial.code);
      if (!missing) denials.push(result.denial);
      const why = missing
        ? "No such file or directory"
        : `Permission denied (${result.denial.reason})`;
      return { kind: "fail", status: 1, message: `${redirection.path}: ${why}` };
    }
    opened.push({ handle: result.handle });
    redirects.push({ target: redirection.fd, fd: result.handle.fd });
  }
  return { kind: "run", argv, redirects };
}

/** The funnel stages: plain argvs, or trampolined ones when descriptors must be placed. */
function funnelStages(plans: readonly StagePlan[]) {
  const extras: number[] = [];
  const slot = (fd: number) => {
    let index = extras.indexOf(fd);
    if (index < 0) index = extras.push(fd) - 1;
    return 3 + index;
  };
  let stdin: number | undefined;
  const first = plans[0];
  const firstOnlyReads =
    first?.kind === "run" && first.redirects.every((r) => "target" in r && r.target === 0);
  if (first?.kind === "run" && firstOnlyReads && first.redirects.length > 0) {
    const last = first.redirects[first.redirects.length - 1] as { fd: number };
    stdin = last.fd;
  }
  const redirectText: string[] = plans.map((plan, index) => {
    if (plan.kind !== "run" || (index === 0 && stdin !== undefined)) return "";
    return plan.redirects
      .map((r) =>
        "duplicate" in r ? " 2>&1" : ` ${r.target}${r.target === 0 ? "<" : ">"}&${slot(r.fd)}`,
      )
      .join("");
  });
  const closes = extras.map((_, index) => ` ${3 + index}>&-`).join("");
  const wrapAll = extras.length > 0;
  const stages = plans.map((plan, index) => {
    if (plan.kind === "fail") {
      const close = closes === "" ? "" : `exec${closes}; `;
      return [
        TRAMPOLINE_SHELL,
        "-c",
        `${close}printf '%s\\n' "$1" >&2; exit ${plan.status}`,
        "sh",
        plan.message,
      ];
    }
    const redirects = redirectText[index] as string;
    if (!wrapAll && redirects === "") return plan.argv;
    return [TRAMPOLINE_SHELL, "-c", `exec "$@"${redirects}${closes}`, "sh", ...plan.argv];
  });
  const trampolined =
    wrapAll || plans.some((plan, index) => plan.kind === "fail" || redirectText[index] !== "");
  return { stages, extras, stdin, trampolined };
}

interface PipelineOutcome {
  readonly status: number;
  readonly stop: boolean;
}

/** Runs the admitted script: `&&`/`||`/`;` decided here, each pipeline one funnel run. */
export async function executeScript(
  script: AdmittedScript,
  context: ExecutionContext,
): Promise<ScriptOutcome> {
  const stdout = new Output(context.maxOutputBytes);
  const stderr = new Output(context.maxOutputBytes);
  const denials: Denial[] = [];
  let facts: SandboxRunFacts | undefined;
  let timedOut = false;
  let cancelled = false;
  let spawned = false;
  let refusedBeforeRun: Denial | undefined;

  const runPipeline = async (pipeline: AdmittedPipeline): Promise<PipelineOutcome> => {
    if (context.signal?.aborted) {
      cancelled = true;
      return { status: 130, stop: true };
    }
    const remaining = context.deadline - performance.now();
    if (remaining <= 0) {
      timedOut = true;
      return { status: 124, stop: true };
    }
    const opened: Opened[] = [];
    try {
      const plans: StagePlan[] = [];
      for (const stage of pipeline.stages)
        plans.push(await planStage(stage, context, opened, denials));
      const only = plans.length === 1 ? plans[0] : undefined;
      if (only?.kind === "fail") {
        stderr.add(Buffer.from(`shell-safe: ${only.message}\n`), false);
        context.session?.emit("stderr", Buffer.from(`shell-safe: ${only.message}\n`));
        return { status: only.status, stop: false };
      }
      const { stages, extras, stdin, trampolined } = funnelStages(
        plans.map((plan) =>
          plan.kind === "fail" ? { ...plan, message: `shell-safe: ${plan.message}` } : plan,
        ),
      );
      const observer = context.session
        ? {
            onOutput: (_id: unknown, stream: "stdout" | "stderr", chunk: Uint8Array) =>
              context.session?.emit(stream, chunk),
          }
        : undefined;
      const outcome = await context.sandbox.run(
        context.cx,
        {
          stages,
          cwd: context.cwd,
          env: context.callerEnv,
          timeoutMs: remaining,
          maxOutputBytes: context.maxOutputBytes,
          signal: context.signal,
          stdin,
          extraDescriptors: extras.length > 0 ? extras : undefined,
          runtimeExecutables: trampolined ? [TRAMPOLINE_SHELL] : undefined,
          observer,
        },
        { coverage: FS_AND_EXEC_COVERAGE },
      );
      facts = {
        report: outcome.report,
        sandboxKind: outcome.sandboxKind,
        unbridled: outcome.unbridled,
      };
      if (outcome.kind === "refused") {
        if (!spawned) refusedBeforeRun ??= outcome.denial;
        denials.push(outcome.denial);
        return { status: 126, stop: true };
      }
      if (outcome.kind === "not-found") {
        stderr.add(Buffer.from(`shell-safe: ${outcome.program}: command not found\n`), false);
        return { status: 127, stop: false };
      }
      spawned = true;
      const { result } = outcome;
      stdout.add(result.stdout, result.stdoutTruncated);
      stderr.add(result.stderr, result.stderrTruncated);
      if (result.timedOut) {
        timedOut = true;
        return { status: 124, stop: true };
      }
      if (result.cancelled) {
        cancelled = true;
        return { status: 130, stop: true };
      }
      return { status: shellStatus(result.exitCode, result.signal), stop: false };
    } finally {
      await Promise.all(opened.map(({ handle }) => handle.close().catch(() => {})));
    }
  };

  let status = 0;
  outer: for (const list of script.lists) {
    let outcome = await runPipeline(list.head);
    status = outcome.status;
    if (outcome.stop) break;
    for (const link of list.tail) {
      if ((link.op === "&&") !== (status === 0)) continue;
      outcome = await runPipeline(link.pipeline);
      status = outcome.status;
      if (outcome.stop) break outer;
    }
  }
  return {
    status,
    stdout: stdout.bytes(),
    stderr: stderr.bytes(),
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    timedOut,
    cancelled,
    denials,
    facts,
    refusedBeforeRun: spawned ? undefined : refusedBeforeRun,
  };
}
