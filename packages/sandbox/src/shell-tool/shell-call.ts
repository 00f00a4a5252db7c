/**
 * One call of a shell tool as the kit hands it to an engine's `run`: the request, the
 * context, and the steps every engine takes in the same words (the working directory,
 * a refusal, the live-output session, the run envelope with its timeout text).
 */
import {
  buildDeniedEnvelope,
  buildRunEnvelope,
  createOutputSession,
  type Denial,
  deniedInvocation,
  type Invocation,
  type OutputSession,
  type RunOutcome,
  ran,
  type ShellLimits,
  type ShellOutputObserver,
  type ToolContext,
  type ToolEnvelope,
} from "@agent-bridle/core";
import type { ResourceLimits } from "../backend/resource-limits.js";
import { withLimitDenials } from "../funnel/limit-denial.js";
import type { ExceededLimit } from "../funnel/limit-trailer.js";
import { envelopeContextOf, nothingStarted } from "../funnel/run-result.js";
import { checkWorkingDirectory } from "../funnel/working-directory.js";

/** What the envelope says of where a call ran (`envelopeContextOf`'s facts). */
export type ShellCallFacts = Parameters<typeof envelopeContextOf>[1];

/** What a run produced, before the envelope: the kit adds the timeout text and limit denials. */
export interface ShellRun extends RunOutcome {
  readonly limitsExceeded: readonly ExceededLimit[];
  readonly limits: ResourceLimits | undefined;
}

export type ShellInvocation = Invocation<ToolEnvelope>;

export interface ShellCall<I> {
  readonly input: I;
  readonly cx: ToolContext;
  readonly signal: AbortSignal;
  readonly approve: (() => Promise<void>) | undefined;
  /** The tool's observer and this call's, joined (`undefined`: nobody watches). */
  readonly observer: ShellOutputObserver | undefined;
  /** `performance.now()` when the call began. */
  readonly started: number;
  /** `timeout_secs`, or the engine's default. */
  readonly timeoutSecs: number;
  /** The request's `cwd` (or the base directory), judged like any path. */
  workingDirectory(): ReturnType<typeof checkWorkingDirectory>;
  /** A refused call: nothing ran unless `facts` say what did. */
  refuse(
    denial: Denial,
    more?: { readonly facts?: ShellCallFacts; readonly inspection?: Record<string, unknown> },
  ): ShellInvocation;
  /** The live-output session of this call, if anyone watches. */
  outputSession(): OutputSession | undefined;
  /** The run envelope: stderr ends with `command timed out after Ns` on a timeout. */
  ran(facts: ShellCallFacts, run: ShellRun): ShellInvocation;
}

/** The text a timed-out call's stderr ends with, in every engine. */
export function timeoutText(timeoutSecs: number): string {
  return `command timed out after ${timeoutSecs}s\n`;
}

export interface ShellCallSetting {
  readonly engine: string | undefined;
  readonly baseDir: string | undefined;
  readonly limits: ShellLimits;
}

export function shellCall<
  I extends { readonly timeout_secs?: number | undefined; readonly cwd?: string | undefined },
>(
  setting: ShellCallSetting,
  input: I,
  cx: ToolContext,
  options: {
    readonly signal: AbortSignal;
    readonly approve?: (() => Promise<void>) | undefined;
    readonly observer: ShellOutputObserver | undefined;
  },
): ShellCall<I> {
  const started = performance.now();
  const timeoutSecs = input.timeout_secs ?? setting.limits.defaultTimeoutSecs;
  const contextOf = (facts: ShellCallFacts) =>
    envelopeContextOf(cx, facts, started, setting.engine);
  return {
    input,
    cx,
    signal: options.signal,
    approve: options.approve,
    observer: options.observer,
    started,
    timeoutSecs,
    workingDirectory: () => checkWorkingDirectory(cx, input.cwd, setting.baseDir),
    refuse: (denial, more = {}) =>
      deniedInvocation<ToolEnvelope>(
        buildDeniedEnvelope(
          contextOf(more.facts ?? nothingStarted(false)),
          [denial],
          more.inspection,
        ),
      ),
    outputSession: () =>
      options.observer
        ? createOutputSession(options.observer, {
            maxBytesPerStream: setting.limits.maxOutputBytes,
          })
        : undefined,
    ran: (facts, run) =>
      ran<ToolEnvelope>(
        buildRunEnvelope(contextOf(facts), {
          ...run,
          stderr: run.timedOut ? `${run.stderr}${timeoutText(timeoutSecs)}` : run.stderr,
          denials: withLimitDenials(run.denials, run.limitsExceeded, run.limits),
        }),
      ),
  };
}
