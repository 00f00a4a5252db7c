import { isAbsolute } from "node:path";
import {
  buildDeniedEnvelope,
  buildRunEnvelope,
  ConfigurationError,
  DEFAULT_SHELL_LIMITS,
  type Denial,
  defineTool,
  deniedInvocation,
  type EnvelopeContext,
  isUnbridled,
  joinOutputObservers,
  NO_COVERAGE,
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
import { engineUnavailable, unbridledRefusal } from "./engine-unavailable.js";
import { exitStatusOf } from "./exit-status.js";
import { type ShellInput, shellInputSchema } from "./shell-input.js";

export interface HostShellToolOptions {
  /** The shell binary, absolute, fixed here and never taken from a request. Default `/bin/bash`. */
  readonly shell?: string;
  /** Where a request without `cwd` (or with a relative one) runs. */
  readonly baseDir?: string;
  /** The children's `HOME` and `TMPDIR` (explicit: a trust decision). */
  readonly home: string;
  readonly tmpdir: string;
  /** The L3 backend; default the host's (the launcher on Linux). */
  readonly backend?: Backend;
  /**
   * Limits of every call's process tree, over `DEFAULT_RESOURCE_LIMITS` (512 processes,
   * 4 GiB for the whole tree, files up to 1 GiB, 4096 open files, a 512 MiB `/tmp`). One
   * the tree runs into is reported in the envelope (`LIMIT_EXCEEDED`, naming it).
   */
  readonly resourceLimits?: ResourceLimits;
  /** The git identity of a call's private home (when `HOME` is not granted; default `DEFAULT_GIT_IDENTITY`). */
  readonly gitIdentity?: GitIdentity | undefined;
  readonly limits?: Partial<ShellLimits>;
  /** Live output, per invocation (reference §8). */
  readonly observer?: ShellOutputObserver;
  /** Registered name; default `shell`. */
  readonly name?: string;
}

const ENGINE = "sandbox-host";

/**
 * Full host bash (`bash --norc --noprofile -c <cmd>`) with the whole guarantee on the
 * kernel boundary: the engine parses and checks nothing itself, so it serves a call only
 * when the backend bounds every restricted axis to the strength floor, and refuses in-band
 * otherwise ("engine unavailable for this grant"). Never part of a default registry.
 */
export function createHostShellTool(options: HostShellToolOptions): Tool<ShellInput, ToolEnvelope> {
  const shell = options.shell ?? "/bin/bash";
  if (!isAbsolute(shell))
    throw new ConfigurationError(`shell must be an absolute path, got ${JSON.stringify(shell)}`);
  if (options.baseDir !== undefined && !isAbsolute(options.baseDir)) {
    throw new ConfigurationError("baseDir must be an absolute path");
  }
  const limits: ShellLimits = { ...DEFAULT_SHELL_LIMITS, ...options.limits };
  const sandbox = createSandbox({
    backend: options.backend ?? createHostBackend(),
    home: options.home,
    tmpdir: options.tmpdir,
    limits: options.resourceLimits,
    gitIdentity: options.gitIdentity,
  });

  const refuse = (context: EnvelopeContext, denial: Denial) =>
    deniedInvocation<ToolEnvelope>(buildDeniedEnvelope(context, [denial]));

  return defineTool<ShellInput, ToolEnvelope>({
    name: options.name ?? "shell",
    description:
      "Run a bash script on the host (full bash: pipes, loops, substitutions). Confined by the kernel to the grant; if the host cannot enforce the grant, the call is refused and says which axis.",
    inputSchema: shellInputSchema(limits),
    annotations: SHELL_TOOL_ANNOTATIONS,
    async invoke() {
      throw new ToolFailedError("the host shell is dispatched through invokeAccounted");
    },
    approvesAfterChecks: true,
    async invokeAccounted(input, cx, { signal, observer, approve }) {
      const started = performance.now();
      const quiet = { report: {}, sandboxKind: "none" as const, unbridled: isUnbridled() };
      const unbridled = isUnbridled() ? unbridledRefusal(cx.caveats) : undefined;
      if (unbridled) return refuse(envelopeContextOf(cx, quiet, started, ENGINE), unbridled);
      const cwd = await checkWorkingDirectory(cx, input.cwd, options.baseDir);
      if (!cwd.ok) return refuse(envelopeContextOf(cx, quiet, started, ENGINE), cwd.denial);
      const outcome = await sandbox.run(
        cx,
        {
          stages: [[shell, "--norc", "--noprofile", "-c", input.cmd]],
          cwd: cwd.path,
          env: input.env,
          timeoutMs: (input.timeout_secs ?? limits.defaultTimeoutSecs) * 1000,
          maxOutputBytes: limits.maxOutputBytes,
          signal,
          runtimeExecutables: [shell],
          approve,
          observer: joinOutputObservers(options.observer, observer),
        },
        { coverage: NO_COVERAGE },
      );
      const context = envelopeContextOf(cx, outcome, started, ENGINE);
      if (outcome.kind === "refused") {
        return refuse(
          context,
          outcome.shortfall ? engineUnavailable(outcome.shortfall) : outcome.denial,
        );
      }
      if (outcome.kind === "not-found")
        throw new ToolFailedError(`the configured shell is missing (${shell})`);
      const { result } = outcome;
      return ran<ToolEnvelope>(
        buildRunEnvelope(context, {
          exitCode: exitStatusOf(result),
          stdout: result.stdout.toString("utf8"),
          stderr: result.timedOut
            ? `${result.stderr.toString("utf8")}command timed out after ${input.timeout_secs ?? limits.defaultTimeoutSecs}s\n`
            : result.stderr.toString("utf8"),
          timedOut: result.timedOut,
          stdoutTruncated: result.stdoutTruncated,
          stderrTruncated: result.stderrTruncated,
          // Connections the call's egress proxy refused (a host allow-list), then limits.
          denials: withLimitDenials(
            [...(outcome.netDenials ?? [])],
            result.limitsExceeded,
            outcome.limits,
          ),
        }),
      );
    },
  });
}
