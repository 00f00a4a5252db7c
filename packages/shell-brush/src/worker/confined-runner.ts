/**
 * The worker's `ExternalRunner`: every external command through the sandbox's in-worker
 * spawn entry (admission audited, environment rebuilt with the denylist, tree killed on
 * abort). The worker itself already runs under the call's L3 boundary, which every
 * child inherits.
 */
import { constants } from "node:os";
import type { AuditSink, Scope } from "@agent-bridle/core";
import { spawnStreaming } from "@agent-bridle/sandbox";
import type {
  ExternalDescriptor,
  ExternalRequest,
  ExternalResult,
  ExternalRunner,
} from "../interpret/external.js";
import { substitutionFiles } from "./substitution-files.js";

export interface ConfinedRunnerOptions {
  readonly exec: Scope<string>;
  readonly audit: AuditSink;
  readonly toolName: string;
  /** The children's `HOME` unless the script exports its own, and their `TMPDIR`. */
  readonly home: string;
  readonly tmpdir: string;
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
    });
    if (outcome.kind === "denied") {
      // Core's reasons read `denied: …`; the message already says so (reference §5.3).
      const reason = outcome.denial.reason.replace(/^denied: /, "");
      request.stderr(Buffer.from(`${request.argv[0]}: execution denied: ${reason}\n`));
      return { status: 126 };
    }
    if (outcome.kind === "not-found") {
      request.stderr(Buffer.from(`${request.argv[0]}: command not found\n`));
      return { status: 127 };
    }
    if (outcome.exitCode !== null) return { status: outcome.exitCode };
    const number = outcome.signal === null ? undefined : constants.signals[outcome.signal];
    return { status: 128 + (number ?? 9) };
  }
}
