import { isAbsolute } from "node:path";
import {
  ConfigurationError,
  DEFAULT_SHELL_LIMITS,
  isUnbridled,
  NO_COVERAGE,
  type Tool,
  type ToolEnvelope,
  ToolFailedError,
} from "@agent-bridle/core";
import { type CommonShellToolOptions, defineShellTool } from "@agent-bridle/sandbox";
import { engineUnavailable, unbridledRefusal } from "./engine-unavailable.js";
import { exitStatusOf } from "./exit-status.js";
import { type ShellInput, shellInputSchema } from "./shell-input.js";

export interface HostShellToolOptions extends CommonShellToolOptions {
  /** The shell binary, absolute, fixed here and never taken from a request. Default `/bin/bash`. */
  readonly shell?: string;
}

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
  return defineShellTool(options, DEFAULT_SHELL_LIMITS, ({ limits, sandbox }) => ({
    engine: "sandbox-host",
    description:
      "Run a bash script on the host (full bash: pipes, loops, substitutions). Confined by the kernel to the grant; if the host cannot enforce the grant, the call is refused and says which axis.",
    inputSchema: shellInputSchema(limits),
    async run(call) {
      const { input, cx } = call;
      const unbridled = isUnbridled() ? unbridledRefusal(cx.caveats) : undefined;
      if (unbridled) return call.refuse(unbridled);
      const cwd = await call.workingDirectory();
      if (!cwd.ok) return call.refuse(cwd.denial);
      const outcome = await sandbox.run(
        cx,
        {
          stages: [[shell, "--norc", "--noprofile", "-c", input.cmd]],
          cwd: cwd.path,
          env: input.env,
          timeoutMs: call.timeoutSecs * 1000,
          maxOutputBytes: limits.maxOutputBytes,
          signal: call.signal,
          runtimeExecutables: [shell],
          approve: call.approve,
          observer: call.observer,
        },
        { coverage: NO_COVERAGE },
      );
      if (outcome.kind === "refused") {
        const denial = outcome.shortfall ? engineUnavailable(outcome.shortfall) : outcome.denial;
        return call.refuse(denial, { facts: outcome });
      }
      if (outcome.kind === "not-found")
        throw new ToolFailedError(`the configured shell is missing (${shell})`);
      const { result } = outcome;
      return call.ran(outcome, {
        exitCode: exitStatusOf(result),
        stdout: result.stdout.toString("utf8"),
        stderr: result.stderr.toString("utf8"),
        timedOut: result.timedOut,
        stdoutTruncated: result.stdoutTruncated,
        stderrTruncated: result.stderrTruncated,
        // Connections the call's egress proxy refused (a host allow-list), then limits.
        denials: [...(outcome.lateDenials ?? [])],
        limitsExceeded: result.limitsExceeded,
        limits: outcome.limits,
      });
    },
  }));
}
