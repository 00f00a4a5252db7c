import { type Denial, FS_AND_EXEC_COVERAGE } from "@agent-bridle/core";
import {
  EXCEEDED_LIMITS,
  type ExceededLimit,
  type ResourceLimits,
  type SandboxRunFacts,
  type SandboxRunOutcome,
  type SandboxRunRequest,
  type StageStdio,
  shellStatus,
} from "@agent-bridle/sandbox";
import type { AdmittedPipeline, AdmittedScript } from "./admit.js";
import { type FunnelStage, withCarriedChannels } from "./carried-stages.js";
import type { CarriedRuntime, ExecutionContext } from "./execution-context.js";
import { fileSizeReached } from "./file-size-reached.js";
import {
  type FailPlan,
  type OpenedTarget,
  planStage,
  type RunPlan,
  type StagePlan,
} from "./stage-plan.js";

export type { ExecutionContext } from "./execution-context.js";

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
  readonly facts: (SandboxRunFacts & { readonly netVia?: "proxy" | undefined }) | undefined;
  /** The funnel refused the first pipeline before anything ran (the floor): uncharged. */
  readonly refusedBeforeRun: Denial | undefined;
  /** Resource limits the pipelines ran into. */
  readonly limitsExceeded: readonly ExceededLimit[];
  /** The limits the backend applied (of the last pipeline run; `undefined`: none). */
  readonly limits: ResourceLimits | undefined;
}

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

/**
 * The stages that run, with bash's wiring around those that fail before starting: the
 * stage before a failed one writes into a pipe nobody reads (as into a process that never
 * started), the stage after it reads end of file.
 */
function runnable(plans: readonly StagePlan[]): RunPlan[] {
  const runs: RunPlan[] = [];
  for (const [index, plan] of plans.entries()) {
    if (plan.kind !== "run") continue;
    if (plans[index + 1]?.kind !== "fail") {
      runs.push(plan);
      continue;
    }
    const stdio: StageStdio = {
      ...plan.stdio,
      stdout: plan.stdio.stdout ?? "closed",
      stderr: plan.stdio.stderr === "stdout" ? "closed" : plan.stdio.stderr,
    };
    runs.push({ ...plan, stdio });
  }
  return runs;
}

type RunFacts = SandboxRunFacts & { readonly netVia?: "proxy" | undefined };

/** What the funnel is asked to run for one pipeline, its observer aside. */
function funnelRequest(
  context: ExecutionContext,
  stages: readonly FunnelStage[],
  timeoutMs: number,
  runtime: CarriedRuntime | undefined,
): Omit<SandboxRunRequest, "observer"> {
  return {
    stages: stages.map((stage) => stage.argv),
    stageStdio: stages.map((stage) => stage.stdio),
    cwd: context.cwd,
    env: context.callerEnv,
    timeoutMs,
    maxOutputBytes: context.maxOutputBytes,
    signal: context.signal,
    runtimeExecutables: runtime?.executables,
    runtimeReadPaths: runtime?.readPaths,
  };
}

/** The facts a result reports of a funnel run, whatever its kind. */
function factsOf(outcome: SandboxRunOutcome): RunFacts {
  return {
    report: outcome.report,
    sandboxKind: outcome.sandboxKind,
    unbridled: outcome.unbridled,
    // A host allow-list: the network went through the call's egress proxy.
    ...(outcome.kind === "ran" && outcome.netVia !== undefined ? { netVia: outcome.netVia } : {}),
  };
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
  let facts: RunFacts | undefined;
  let timedOut = false;
  let cancelled = false;
  let spawned = false;
  let refusedBeforeRun: Denial | undefined;
  let limits: ResourceLimits | undefined;
  const limitsHit = new Set<ExceededLimit>();
  const observer = context.session
    ? {
        onOutput: (_id: unknown, stream: "stdout" | "stderr", chunk: Uint8Array) =>
          context.session?.emit(stream, chunk),
      }
    : undefined;

  const failed = (plan: FailPlan) => {
    const text = Buffer.from(`shell-safe: ${plan.message}\n`);
    stderr.add(text, false);
    context.session?.emit("stderr", text);
  };

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
    const opened: OpenedTarget[] = [];
    try {
      const plans: StagePlan[] = [];
      for (const stage of pipeline.stages)
        plans.push(await planStage(stage, context, opened, denials));
      for (const plan of plans) if (plan.kind === "fail") failed(plan);
      const last = plans[plans.length - 1] as StagePlan;
      const runs = runnable(plans);
      if (runs.length === 0) return { status: (last as FailPlan).status, stop: false };
      const carried = runs.some((plan) => plan.carried !== undefined);
      const runtime = carried ? await context.carriedRuntime() : undefined;
      const outcome = await withCarriedChannels(runs, (stages) =>
        context.sandbox.run(
          context.cx,
          { ...funnelRequest(context, stages, remaining, runtime), observer },
          { coverage: FS_AND_EXEC_COVERAGE },
        ),
      );
      facts = factsOf(outcome);
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
      denials.push(...(outcome.lateDenials ?? [])); // the egress proxy's, what programs planted
      limits = outcome.limits;
      for (const limit of result.limitsExceeded) limitsHit.add(limit);
      const fileSize = limits?.fileSizeBytes;
      if (fileSize !== undefined && (await fileSizeReached(opened, fileSize))) {
        limitsHit.add("file_size");
      }
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
      if (last.kind === "fail") return { status: last.status, stop: false };
      return { status: shellStatus(result.exitCode, result.signal), stop: false };
    } finally {
      await Promise.all(opened.map((target) => target.handle.close().catch(() => {})));
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
    limitsExceeded: EXCEEDED_LIMITS.filter((limit) => limitsHit.has(limit)),
    limits,
  };
}
