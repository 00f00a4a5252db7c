/**
 * `shell` backed by our bash interpreter, one fresh confined worker per call (spec §9,
 * reference §5). The parent checks the working directory, starts (or takes the warm)
 * worker through the sandbox funnel, sends the request once, relays the validated frames
 * live to the observer, and builds the envelope from the terminal frame.
 */
import { availableParallelism } from "node:os";
import { isAbsolute } from "node:path";
import { inspectShell } from "@agent-bridle/bash";
import {
  buildDeniedEnvelope,
  buildRunEnvelope,
  ConfigurationError,
  createOutputSession,
  DEFAULT_SHELL_LIMITS,
  type Denial,
  defineTool,
  deniedInvocation,
  type EnvelopeContext,
  joinOutputObservers,
  type OutputSession,
  ran,
  SHELL_TOOL_ANNOTATIONS,
  type ShellLimits,
  type ShellOutputObserver,
  type Tool,
  type ToolEnvelope,
  ToolFailedError,
} from "@agent-bridle/core";
import {
  type Backend,
  checkWorkingDirectory,
  createHostBackend,
  createSandbox,
  envelopeContextOf,
  type GitIdentity,
  type ResourceLimits,
  withLimitDenials,
} from "@agent-bridle/sandbox";
import { type BrushInput, brushInputSchema } from "./brush-input.js";
import { callWorker } from "./call-worker.js";
import { requirePrivateControlTransport } from "./platform-gate.js";
import { WorkerPool } from "./worker-pool.js";

export interface BrushShellToolOptions {
  /** Where a request without `cwd` (or with a relative one) runs. */
  readonly baseDir?: string;
  /** The worker's and its children's `HOME` and `TMPDIR` (explicit: a trust decision). */
  readonly home: string;
  readonly tmpdir: string;
  /** The L3 backend; default the host's (the launcher on Linux). */
  readonly backend?: Backend;
  /**
   * Limits of every call's process tree, the worker included, over
   * `DEFAULT_RESOURCE_LIMITS` (512 processes and threads, 4 GiB for the whole tree,
   * files up to 1 GiB, 4096 open files, a 512 MiB `/tmp`, 1 GiB written by the
   * interpreter's own redirections). One the call runs into is reported in the envelope
   * (`LIMIT_EXCEEDED`, naming it).
   */
  readonly resourceLimits?: ResourceLimits;
  /** The git identity of a call's private home (when `HOME` is not granted; default `DEFAULT_GIT_IDENTITY`). */
  readonly gitIdentity?: GitIdentity | undefined;
  readonly limits?: Partial<ShellLimits>;
  /** Live output, per invocation (reference §8). */
  readonly observer?: ShellOutputObserver;
  /** Pre-start workers for the next calls with the same caveats (default true). */
  readonly warm?: boolean;
  /**
   * The most workers kept ready at once (default: the host's cores). The pool keeps as
   * many as calls were recently in flight at once, within this bound (issue 20).
   */
  readonly maxWarmWorkers?: number;
  /** How long a warm worker waits for a call before it exits (default 30 s). */
  readonly idleMs?: number;
  /** Registered name; default `shell`. */
  readonly name?: string;
}

const ENGINE = "brush";
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

export function createBrushShellTool(options: BrushShellToolOptions): BrushShellTool {
  if (options.baseDir !== undefined && !isAbsolute(options.baseDir)) {
    throw new ConfigurationError("baseDir must be an absolute path");
  }
  const limits: ShellLimits = { ...DEFAULT_SHELL_LIMITS, ...options.limits };
  // Reference §5.5: the worker's per-stream cap is 1 byte to 64 MiB, refused (not clamped).
  const cap = limits.maxOutputBytes;
  if (!Number.isSafeInteger(cap) || cap < 1 || cap > MAX_WORKER_OUTPUT_BYTES) {
    throw new ConfigurationError("limits.maxOutputBytes must be an integer from 1 to 64 MiB");
  }
  const sandbox = createSandbox({
    backend: options.backend ?? createHostBackend(),
    home: options.home,
    tmpdir: options.tmpdir,
    limits: options.resourceLimits,
    gitIdentity: options.gitIdentity,
  });
  const pool = new WorkerPool({
    sandbox,
    cwd: options.baseDir ?? "/",
    maxOutputBytes: limits.maxOutputBytes,
    maxWrittenBytes: sandbox.limits.interpreterWrittenBytes ?? Number.MAX_SAFE_INTEGER,
    maxCallMs: limits.maxTimeoutSecs * 1000,
    idleMs: options.idleMs ?? 30_000,
    warm: options.warm ?? true,
    maxWarm: warmBound(options.maxWarmWorkers),
  });
  const refuse = (context: EnvelopeContext, denial: Denial) =>
    deniedInvocation<ToolEnvelope>(buildDeniedEnvelope(context, [denial]));

  const tool = defineTool<BrushInput, ToolEnvelope>({
    name: options.name ?? "shell",
    description:
      "Run a bash script (full bash: pipes, loops, functions, substitutions) in a confined worker. Programs outside the grant fail with status 126 and 'execution denied'; files outside it cannot be opened. Returns exit_code, stdout, stderr and which boundary held.",
    inputSchema: brushInputSchema(limits),
    annotations: SHELL_TOOL_ANNOTATIONS,
    /** The approval hook's view of the script: its `shell_inspection` (never runs anything). */
    inspect: async (input) => inspectShell(input.cmd),
    /** Kills the warm worker, if any (`registry.close()` calls it). */
    close: () => pool.close(),
    async invoke() {
      throw new ToolFailedError("the bash shell is dispatched through invokeAccounted");
    },
    approvesAfterChecks: true,
    async invokeAccounted(input, cx, { signal, observer, approve }) {
      requirePrivateControlTransport();
      const started = performance.now();
      const quiet = { report: {}, sandboxKind: "none" as const, unbridled: false };
      const cwd = await checkWorkingDirectory(cx, input.cwd, options.baseDir);
      if (!cwd.ok) return refuse(envelopeContextOf(cx, quiet, started, ENGINE), cwd.denial);
      const worker = await pool.take(cx);
      if (worker.kind === "failed") {
        const { outcome } = worker;
        const context = envelopeContextOf(cx, outcome, started, ENGINE);
        if (outcome.kind === "refused") return refuse(context, outcome.denial);
        throw new ToolFailedError(`brush worker authentication handshake failed: ${worker.reason}`);
      }
      // The working directory is judged and the sandbox admitted the worker (the floor):
      // now the person is asked, before the script runs. A refusal ends the idle worker.
      try {
        await approve?.();
      } catch (error) {
        worker.kill();
        pool.reaping(worker.outcome);
        throw error;
      }
      const joined = joinOutputObservers(options.observer, observer);
      const session: OutputSession | undefined = joined
        ? createOutputSession(joined, { maxBytesPerStream: limits.maxOutputBytes })
        : undefined;
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let truncated = { stdout: false, stderr: false };
      const timeoutSecs = input.timeout_secs ?? limits.defaultTimeoutSecs;
      const result = await callWorker(
        worker,
        { cmd: input.cmd, cwd: cwd.path, env: input.env ?? {}, timeout_ms: timeoutSecs * 1000 },
        {
          timeoutMs: timeoutSecs * 1000,
          signal,
          maxOutputBytes: limits.maxOutputBytes,
          onEvent(event) {
            if (event.kind === "stdout" || event.kind === "stderr") {
              (event.kind === "stdout" ? stdout : stderr).push(event.chunk);
              session?.emit(event.kind, event.chunk);
            } else if (event.kind === "truncated") {
              truncated = {
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
          },
        },
      );
      pool.reaping(result.reaped);
      pool.prestart(cx);
      const context = envelopeContextOf(cx, result.facts, started, ENGINE);
      if (result.timedOut || result.cancelled) session?.cancel();
      else session?.finish();
      if (result.streamError !== undefined) throw new ToolFailedError(result.streamError);
      if (result.terminal?.error) {
        throw new ToolFailedError(`brush worker refused request: ${result.terminal.error}`);
      }
      // A worker killed for the tree's memory ends without a result, and says why.
      const ended = !result.timedOut && !result.cancelled && result.terminal === undefined;
      if (ended && result.limitsExceeded.length === 0) {
        throw new ToolFailedError("the brush worker ended without a result");
      }
      const errText = Buffer.concat(stderr).toString("utf8");
      const exitCode =
        result.timedOut || result.cancelled
          ? 124
          : (result.terminal?.exit_code ?? result.workerStatus ?? 124);
      return ran<ToolEnvelope>(
        buildRunEnvelope(context, {
          exitCode,
          stdout: Buffer.concat(stdout).toString("utf8"),
          stderr: result.timedOut ? `${errText}command timed out after ${timeoutSecs}s\n` : errText,
          timedOut: result.timedOut,
          stdoutTruncated: truncated.stdout,
          stderrTruncated: truncated.stderr,
          // The interpreter's, then what the call's egress proxy refused (a host allow-list).
          denials: withLimitDenials(
            [
              ...((result.terminal?.denials ?? []) as Denial[]),
              ...(result.facts.netDenials?.() ?? []),
            ],
            result.limitsExceeded,
            result.facts.limits,
          ),
        }),
      );
    },
  });
  return Object.freeze({ ...tool, warmReady: () => pool.ready() });
}
