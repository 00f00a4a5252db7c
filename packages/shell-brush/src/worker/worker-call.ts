/**
 * One call inside the worker: re-mint the `ToolContext` from the launch frame's
 * authority (so the in-worker leash is exactly the parent's effective caveats), run the
 * script with the interceptor as its `ShellAccess` and the in-worker spawn entry as its
 * runner, and stream everything back as frames.
 */
import {
  type AuditSink,
  type Caveats,
  type EnforcementFloor,
  Gate,
  type PathPolicy,
  top,
} from "@agent-bridle/core";
import { type ExceededLimit, limitExceededDenial } from "@agent-bridle/sandbox";
import { Interpreter } from "../interpret/interpreter.js";
import type { OutputSink } from "../interpret/io/io.js";
import type { ShellAccess } from "../interpret/io/shell-access.js";
import { writeMeter } from "../interpret/io/write-meter.js";
import { createConfinedRunner } from "./confined-runner.js";
import { ownFileSizeLimit, watchFileSizes } from "./file-size-watch.js";
import { type FrameSink, FrameWriter } from "./frame-writer.js";
import { createGatedAccess } from "./gated-access.js";

export interface WorkerAuthority {
  readonly tool: string;
  readonly caveats: Caveats;
  readonly floor: EnforcementFloor;
  readonly pathPolicy: PathPolicy;
  readonly maxOutputBytes: number;
  /** The bytes the interpreter may write to files itself (redirections), all together. */
  readonly maxWrittenBytes: number;
}

export interface WorkerRequest {
  readonly cmd: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

export interface WorkerPlace {
  /** The worker's own environment as the funnel built it (trusted `PATH`, `HOME`, …). */
  readonly baseEnv: Readonly<Record<string, string>>;
  readonly home: string;
  readonly tmpdir: string;
  /** The verified launcher the worker runs under (programs start nested in it). */
  readonly launcher?: string | undefined;
}

function pinTracePrompt(interpreter: Interpreter): void {
  interpreter.state.set("PS4", "+ ").readonly = true;
}

function sinkTo(writer: FrameWriter, stream: "stdout" | "stderr"): OutputSink {
  return {
    write: (chunk) =>
      writer.output(stream, typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk),
  };
}

export async function runWorkerCall(
  authority: WorkerAuthority,
  request: WorkerRequest,
  place: WorkerPlace,
  send: FrameSink,
): Promise<void> {
  const writer = new FrameWriter(send, authority.maxOutputBytes);
  const audit: AuditSink = {
    record(event) {
      if (event.type !== "spawn") return;
      writer.spawn({
        argv: event.argv,
        decision: event.decision === "admitted" ? "allowed" : "denied",
        code: event.code,
      });
    },
  };
  const cx = new Gate({
    pathPolicy: authority.pathPolicy,
    floor: authority.floor,
    audit,
  }).authorize({ name: authority.tool, required: top() }, authority.caveats);
  writer.started();
  // Each limit the call ran into, once; the parent words it with the bound it applied.
  const reported = new Set<ExceededLimit>();
  const onLimit = (limit: ExceededLimit) => {
    if (reported.has(limit)) return;
    reported.add(limit);
    writer.denied(limitExceededDenial(limit, undefined));
  };
  const gated: ShellAccess = createGatedAccess(cx);
  const fileSize = ownFileSizeLimit();
  const watch =
    fileSize === undefined
      ? undefined
      : watchFileSizes(gated, fileSize, () => onLimit("file_size"));
  const interpreter = new Interpreter({
    cwd: request.cwd,
    env: { ...place.baseEnv, ...request.env },
    access: watch?.access ?? gated,
    onDenial: (denial) => writer.denied(denial),
    runner: createConfinedRunner({
      exec: cx.caveats.exec,
      audit: cx.audit,
      toolName: cx.toolName,
      home: place.home,
      tmpdir: place.tmpdir,
      launcher: place.launcher,
      onLimit,
    }),
    scriptName: "bash",
    deadline: Date.now() + request.timeoutMs,
    writeMeter: writeMeter(authority.maxWrittenBytes, () => onLimit("written_bytes")),
    stdout: sinkTo(writer, "stdout"),
    stderr: sinkTo(writer, "stderr"),
  });
  // Reference §5.3: after the caller's env, `PS4` is pinned to the readonly literal, so a
  // script can never make the trace prompt its own (spec §9).
  pinTracePrompt(interpreter);
  let exitCode: number;
  try {
    exitCode = (await interpreter.run(request.cmd)).exitCode;
  } catch (error) {
    writer.output("stderr", Buffer.from(`bash: internal error: ${(error as Error).message}\n`));
    exitCode = 2;
  }
  watch?.finish();
  writer.terminal(exitCode & 0xff);
}
