/**
 * The bash worker's entry (spec §9; ADR 0008): `node <this file> --agent-bridle-worker
 * brush`, started by the engine through the sandbox funnel with the private channel as
 * descriptor 3. Nothing runs before the parent is proven and the launch frame is read;
 * an idle worker exits on the channel's end or its idle timeout; exactly one request is
 * served. Any authentication failure exits 126 with one stderr line and runs nothing.
 */
import { parseCaveats } from "@agent-bridle/core";
import {
  ChannelReader,
  type FrameRead,
  HUGE_PAGES_ENVIRONMENT,
  NO_FRAME_IN_TIME,
  openChildChannel,
  verifyLauncher,
} from "@agent-bridle/sandbox";
import {
  decodeControl,
  encodeAck,
  LAUNCH_FRAME,
  LAUNCHER_VARIABLE,
  type LaunchBody,
  MAX_CONTROL_BODY,
  NONCE_VARIABLE,
  REQUEST_FRAME,
  type RequestBody,
  WORKER_ARGV,
  WORKER_PROTOCOL_VERSION,
} from "./control-frames.js";
import { runWorkerCall, type WorkerAuthority } from "./worker-call.js";

/** Variables for the worker's own start, never part of the script's environment. */
const WORKER_ONLY_VARIABLES = new Set([
  NONCE_VARIABLE,
  LAUNCHER_VARIABLE,
  ...Object.keys(HUGE_PAGES_ENVIRONMENT),
]);

const LAUNCH_TIMEOUT_MS = 10_000;

function exitWith(code: number, line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(code);
}

function refuse(reason: string): never {
  return exitWith(126, `agent-bridle: trusted worker authentication failed: ${reason}`);
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((entry) => typeof entry === "string")
  );
}

/** A read control frame's JSON value, or why there is none. */
function controlBody(read: FrameRead): { readonly value: unknown } | { readonly error: string } {
  if ("error" in read) return read;
  return decodeControl(read.body) ?? { error: "malformed frame (body)" };
}

function authorityOf(body: unknown, nonce: string): WorkerAuthority | string {
  const launch = body as Partial<LaunchBody>;
  if (launch?.version !== WORKER_PROTOCOL_VERSION) return "unknown protocol version";
  if (launch.nonce !== nonce) return "the launch frame's nonce is not this worker's";
  if (typeof launch.tool !== "string") return "malformed launch frame (tool)";
  const max = launch.max_output_bytes;
  if (!Number.isSafeInteger(max) || (max as number) < 1 || (max as number) > 64 << 20)
    return "malformed launch frame (max_output_bytes)";
  const written = launch.max_written_bytes;
  if (!Number.isSafeInteger(written) || (written as number) < 0)
    return "malformed launch frame (max_written_bytes)";
  const policy = launch.path_policy;
  if (!Array.isArray(policy?.blocked) || !Array.isArray(policy?.writeBlocked))
    return "malformed launch frame (path_policy)";
  if (typeof launch.floor !== "object" || launch.floor === null)
    return "malformed launch frame (floor)";
  try {
    return {
      tool: launch.tool,
      caveats: parseCaveats(launch.caveats),
      floor: launch.floor,
      pathPolicy: { blocked: policy.blocked, writeBlocked: policy.writeBlocked },
      maxOutputBytes: max as number,
      maxWrittenBytes: written as number,
    };
  } catch {
    return "malformed launch frame (caveats)";
  }
}

function requestOf(body: unknown, nonce: string): RequestBody | string {
  const request = body as Partial<RequestBody>;
  if (request?.nonce !== nonce) return "the request's nonce is not this worker's";
  if (typeof request.cmd !== "string" || typeof request.cwd !== "string")
    return "malformed request";
  if (!isStringRecord(request.env)) return "malformed request (env)";
  if (!(typeof request.timeout_ms === "number" && request.timeout_ms > 0))
    return "malformed request (timeout_ms)";
  return request as RequestBody;
}

/** The worker: `args` are the arguments after the entry (its file, or the snapshot's `--`). */
export async function workerMain(args: readonly string[]): Promise<void> {
  if (args.length !== WORKER_ARGV.length || args.some((arg, index) => arg !== WORKER_ARGV[index]))
    exitWith(2, "agent-bridle: invalid private worker entrypoint");
  const nonce = process.env[NONCE_VARIABLE] ?? "";
  if (!/^[0-9a-f]{64}$/.test(nonce)) refuse("no worker nonce");
  // This file is a bundle (or a startup snapshot of one): the parent names the launcher it
  // verified; its checksum is verified again here (ADR 0008 says what that proves).
  const launcher = process.env[LAUNCHER_VARIABLE];
  const opened = await openChildChannel(async () =>
    launcher ? verifyLauncher(launcher, "built") : undefined,
  );
  if (typeof opened === "string") refuse(opened);
  const { channel, proof } = opened;
  const reader = new ChannelReader(channel, MAX_CONTROL_BODY);
  const launch = controlBody(await reader.frame(LAUNCH_FRAME, LAUNCH_TIMEOUT_MS));
  if ("error" in launch) refuse(launch.error);
  const authority = authorityOf(launch.value, nonce);
  if (typeof authority === "string") refuse(authority);
  if (process.ppid !== proof.parentPid) refuse("the parent changed during authentication");
  channel.write(encodeAck(nonce));
  const idleMs = (launch.value as LaunchBody).idle_ms;
  const read = await reader.frame(REQUEST_FRAME, Number.isFinite(idleMs) ? idleMs : 60_000);
  // A warm worker that is never used: the parent closed the channel, or it idled out.
  if ("error" in read && (read.error === "end" || read.error === NO_FRAME_IN_TIME)) process.exit(0);
  const next = controlBody(read);
  if ("error" in next) refuse(next.error);
  const request = requestOf(next.value, nonce);
  if (typeof request === "string") refuse(request);
  const closed = await reader.endOfStream(LAUNCH_TIMEOUT_MS, "more than one request");
  if (closed !== undefined) refuse(closed);
  const baseEnv = Object.fromEntries(
    Object.entries(process.env as Record<string, string>).filter(
      ([name]) => !WORKER_ONLY_VARIABLES.has(name),
    ),
  );
  await runWorkerCall(
    authority,
    {
      cmd: request.cmd,
      cwd: request.cwd,
      env: request.env,
      timeoutMs: request.timeout_ms,
    },
    { baseEnv, home: baseEnv.HOME ?? "/", tmpdir: baseEnv.TMPDIR ?? "/tmp", launcher },
    (frame) => channel.write(frame),
  );
  channel.end(() => process.exit(0));
}

/** Runs the worker; any escape is a refusal, never a half-run call. */
export function startWorker(args: readonly string[]): void {
  workerMain(args).catch((error: unknown) =>
    exitWith(125, `agent-bridle: worker failed: ${String(error)}`),
  );
}
