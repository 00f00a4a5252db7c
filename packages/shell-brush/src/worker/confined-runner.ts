/**
 * The worker's `ExternalRunner`: every external command through the sandbox's in-worker
 * spawn entry (admission audited, environment rebuilt with the denylist, tree killed on
 * abort). The worker itself already runs under the call's L3 boundary, which every
 * child inherits.
 */
import type { CallAuditSink, Scope } from "@agent-bridle/core";
import { type ExceededLimit, shellStatus, spawnStreaming } from "@agent-bridle/sandbox";
import { executionDeniedText } from "../interpret/commands/external-command.js";
import type {
  ExternalDescriptor,
  ExternalRequest,
  ExternalResult,
  ExternalRunner,
} from "../interpret/io/external.js";
import { substitutionFiles } from "./substitution-files.js";

export interface ConfinedRunnerOptions {
  readonly exec: Scope<string>;
  readonly audit: CallAuditSink;
  readonly toolName: string;
  /** The children's `HOME` unless the script exports its own, and their `TMPDIR`. */
  readonly home: string;
  readonly tmpdir: string;
  /** The launcher this worker runs under: every program starts in a nested domain. */
  readonly launcher?: string | undefined;
  /** A program ran into a limit of the call's tree (killed by SIGXFSZ, or no process left). */
  readonly onLimit?: ((limit: ExceededLimit) => void) | undefined;
}

export function createConfinedRunner(options: ConfinedRunnerOptions): ExternalRunner {
  const runner: ExternalRunner = {
    async run(request: ExternalRequest): Promise<ExternalResult> {
      const files = await substitutionFiles(request.argv, request.descriptors, options.tmpdir);
      try {
        return await runProgram(request, files.argv, files.passed);
      } finally {
        await files.finish();
      }
    },
  };
  return runner;

  async function runProgram(
    request: ExternalRequest,
    argv: readonly string[],
    descriptors: ReadonlyMap<number, ExternalDescriptor>,
  ): Promise<ExternalResult> {
    const outcome = await spawnStreaming({
      argv: [request.file, ...argv.slice(1)],
      argv0: request.argv[0],
      exec: options.exec,
      audit: options.audit,
      toolName: options.toolName,
      cwd: request.cwd,
      home: request.env.HOME ?? options.home,
      tmpdir: options.tmpdir,
      env: request.env,
      stdin:
        request.stdin instanceof Uint8Array && request.stdin.length === 0
          ? undefined
          : request.stdin,
      onStdout: request.stdout,
      onStderr: request.stderr,
      descriptors,
      signal: request.signal,
      nestWith: options.launcher,
    });
    if (outcome.kind === "denied") {
      request.stderr(Buffer.from(executionDeniedText(request.argv[0] ?? "", outcome.denial)));
      return { status: 126 };
    }
    if (outcome.kind === "not-found") {
      request.stderr(Buffer.from(`${request.argv[0]}: command not found\n`));
      return { status: 127 };
    }
    for (const limit of outcome.limitsExceeded) options.onLimit?.(limit);
    const status = shellStatus(outcome.exitCode, outcome.signal);
    // Unknown (no code, no known signal): report it as killed.
    return { status: status < 0 ? 137 : status };
  }
}
