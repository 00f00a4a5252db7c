/**
 * `shell` backed by our bash interpreter, one fresh confined worker per call (spec §9,
 * reference §5). The parent checks the working directory, starts (or takes the warm)
 * worker through the sandbox funnel, sends the request once, relays the validated frames
 * live to the observer, and builds the envelope from the terminal frame.
 */
import { availableParallelism } from "node:os";
import { inspectShell } from "@agent-bridle/bash";
import {
  ConfigurationError,
  DEFAULT_SHELL_LIMITS,
  type Denial,
  type OutputSession,
  type ShellLimits,
  type Tool,
  type ToolContext,
  type ToolEnvelope,
  ToolFailedError,
} from "@agent-bridle/core";
import {
  type CommonShellToolOptions,
  defineShellTool,
  type ShellCall,
  type ShellInvocation,
  type ShellRun,
} from "@agent-bridle/sandbox";
import type { WorkerEvent } from "../worker/frame-reader.js";
import { type BrushInput, brushInputSchema } from "./brush-input.js";
import { callWorker, type WorkerCallResult } from "./call-worker.js";
import { requirePrivateControlTransport } from "./platform-gate.js";
import { WorkerPool } from "./worker-pool.js";

export interface BrushShellToolOptions extends CommonShellToolOptions {
  /** Pre-start workers for the next calls with the same caveats (default true). */
  readonly warm?: boolean;
  /**
   * The most workers kept ready at once (default: the host's cores). The pool keeps as
   * many as calls were recently in flight at once, within this bound (issue 20).
   */
  readonly maxWarmWorkers?: number;
  /** How long a warm worker waits for a call before it exits (default 30 s). */
  readonly idleMs?: number;
}

const MAX_WORKER_OUTPUT_BYTES = 64 << 20;

export type BrushShellTool = Tool<BrushInput, ToolEnvelope> & {
  /** Resolves once the warm worker for the next call is ready (if one is being started). */
  warmReady(): Promise<void>;
};

/** The host's bound on ready workers: an integer from 1 to 256, default the cores. */
function warmBound(given: number | undefined): number {
  if (given === undefined) return availableParallelism();
  if (!Number.isSafeInteger(given) || given < 1 || given > 256) {
    throw new ConfigurationError("maxWarmWorkers must be an integer from 1 to 256");
  }
  return given;
}

/** Reference §5.5: the worker's per-stream cap is 1 byte to 64 MiB, refused (not clamped). */
function checkOutputCap(limits: ShellLimits): void {
  const cap = limits.maxOutputBytes;
  if (!Number.isSafeInteger(cap) || cap < 1 || cap > MAX_WORKER_OUTPUT_BYTES) {
    throw new ConfigurationError("limits.maxOutputBytes must be an integer from 1 to 64 MiB");
  }
}

/** What a call collects from the worker's events: output, truncation, audited spawns. */
interface Collected {
  readonly stdout: Buffer[];
  readonly stderr: Buffer[];
  truncated: { stdout: boolean; stderr: boolean };
}

/** The event handler of one call: output to the envelope and the live session, spawns to the audit. */
function collectorOf(
  cx: ToolContext,
  session: OutputSession | undefined,
): { readonly collected: Collected; readonly onEvent: (event: WorkerEvent) => void } {
  const collected: Collected = {
    stdout: [],
    stderr: [],
    truncated: { stdout: false, stderr: false },
  };
  const onEvent = (event: WorkerEvent) => {
    if (event.kind === "stdout" || event.kind === "stderr") {
      collected[event.kind].push(event.chunk);
      session?.emit(event.kind, event.chunk);
    } else if (event.kind === "truncated") {
      collected.truncated = {
        stdout: event.dropped.stdout_bytes > 0,
        stderr: event.dropped.stderr_bytes > 0,
      };
    } else if (event.kind === "spawn") {
      cx.audit.record({
        type: "spawn",
        tool: cx.toolName,
        argv: event.event.argv,
        decision: event.event.decision === "allowed" ? "admitted" : "denied",
        ...(event.event.code ? { code: event.event.code as never } : {}),
      });
    }
  };
  return { collected, onEvent };
}

/** The run the envelope reports, or a tool failure when the worker gave no usable result. */
function brushRunOf(result: WorkerCallResult, collected: Collected): ShellRun {
  if (result.streamError !== undefined) throw new ToolFailedError(result.streamError);
  if (result.terminal?.error) {
    throw new ToolFailedError(`brush worker refused request: ${result.terminal.error}`);
  }
  // A worker killed for the tree's memory ends without a result, and says why.
  const stopped = result.timedOut || result.cancelled;
  if (!stopped && result.terminal === undefined && result.limitsExceeded.length === 0) {
    throw new ToolFailedError("the brush worker ended without a result");
  }
  return {
    exitCode: stopped ? 124 : (result.terminal?.exit_code ?? result.workerStatus ?? 124),
    stdout: Buffer.concat(collected.stdout).toString("utf8"),
    stderr: Buffer.concat(collected.stderr).toString("utf8"),
    timedOut: result.timedOut,
    stdoutTruncated: collected.truncated.stdout,
    stderrTruncated: collected.truncated.stderr,
    // The interpreter's, then the late ones: the egress proxy's, what programs planted.
    denials: [
      ...((result.terminal?.denials ?? []) as Denial[]),
      ...(result.facts.lateDenials?.() ?? []),
    ],
    limitsExceeded: result.limitsExceeded,
    limits: result.facts.limits,
  };
}

/** One call: the working directory, a worker, approval, the request, the envelope. */
async function runBrushCall(
  call: ShellCall<BrushInput>,
  workers: WorkerPool,
  limits: ShellLimits,
): Promise<ShellInvocation> {
  requirePrivateControlTransport();
  const { input, cx } = call;
  const cwd = await call.workingDirectory();
  if (!cwd.ok) return call.refuse(cwd.denial);
  const worker = await workers.take(cx);
  if (worker.kind === "failed") {
    const { outcome } = worker;
    if (outcome.kind === "refused") return call.refuse(outcome.denial, { facts: outcome });
    throw new ToolFailedError(`brush worker authentication handshake failed: ${worker.reason}`);
  }
  // The working directory is judged and the sandbox admitted the worker (the floor):
  // now the person is asked, before the script runs. A refusal ends the idle worker.
  try {
    await call.approve?.();
  } catch (error) {
    worker.kill();
    workers.reaping(worker.outcome);
    throw error;
  }
  const session = call.outputSession();
  const { collected, onEvent } = collectorOf(cx, session);
  const timeoutMs = call.timeoutSecs * 1000;
  const result = await callWorker(
    worker,
    { cmd: input.cmd, cwd: cwd.path, env: input.env ?? {}, timeout_ms: timeoutMs },
    { timeoutMs, signal: call.signal, maxOutputBytes: limits.maxOutputBytes, onEvent },
  );
  workers.reaping(result.reaped);
  workers.prestart(cx);
  if (result.timedOut || result.cancelled) session?.cancel();
  else session?.finish();
  return call.ran(result.facts, brushRunOf(result, collected));
}

export function createBrushShellTool(options: BrushShellToolOptions): BrushShellTool {
  // Made with the sandbox, inside the kit's setup; `warmReady` waits on it.
  let workers!: WorkerPool;
  const tool = defineShellTool<BrushInput, ShellLimits>(options, DEFAULT_SHELL_LIMITS, (setup) => {
    const { limits, sandbox } = setup;
    checkOutputCap(limits);
    workers = new WorkerPool({
      sandbox,
      cwd: options.baseDir ?? "/",
      maxOutputBytes: limits.maxOutputBytes,
      maxWrittenBytes: sandbox.limits.interpreterWrittenBytes ?? Number.MAX_SAFE_INTEGER,
      maxCallMs: limits.maxTimeoutSecs * 1000,
      idleMs: options.idleMs ?? 30_000,
      warm: options.warm ?? true,
      maxWarm: warmBound(options.maxWarmWorkers),
    });
    return {
      engine: "brush",
      description:
        "Run a bash script (full bash: pipes, loops, functions, substitutions) in a confined worker. Programs outside the grant fail with status 126 and 'execution denied'; files outside it cannot be opened. Returns exit_code, stdout, stderr and which boundary held.",
      inputSchema: brushInputSchema(limits),
      /** The approval hook's view of the script: its `shell_inspection` (never runs anything). */
      inspect: async (input) => inspectShell(input.cmd),
      /** Kills the warm worker, if any (`registry.close()` calls it). */
      close: () => workers.close(),
      run: (call) => runBrushCall(call, workers, limits),
    };
  });
  return Object.freeze({ ...tool, warmReady: () => workers.ready() });
}
