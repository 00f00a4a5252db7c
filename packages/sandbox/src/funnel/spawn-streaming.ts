import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import {
  type CallAuditSink,
  ConfigurationError,
  type Denial,
  type Scope,
} from "@agent-bridle/core";
import { admitSpawn } from "./admit-program.js";
import { buildChildEnvironment } from "./child-environment.js";
import { hostDescriptorsToCover } from "./host-descriptors.js";
import type { ExceededLimit } from "./limit-trailer.js";
import { killProcessGroup, killProcessTree } from "./process-tree.js";
import { pumpInput, type StdinFeed } from "./pump-input.js";

export interface StreamingSpawnRequest {
  /** `argv[0]` as the caller resolved it (absolute) or spelled (bare: trusted `PATH`). */
  readonly argv: readonly string[];
  /** What the child sees as `argv[0]` (default `argv[0]`): bash passes the spelling. */
  readonly argv0?: string | undefined;
  readonly exec: Scope<string>;
  readonly audit: CallAuditSink;
  readonly toolName: string;
  readonly cwd: string;
  readonly home: string;
  readonly tmpdir: string;
  /** The caller's variables (the denylist applies; `PATH`, `LC_ALL`, `HOME`, `TMPDIR` are the funnel's). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * The child's stdin: bytes, or chunks as they arrive (written with backpressure), then
   * closed; default `/dev/null`.
   */
  readonly stdin?: StdinFeed | undefined;
  /** Every chunk of the child's output, as it arrives (nothing is kept here). */
  readonly onStdout: (chunk: Buffer) => void;
  readonly onStderr: (chunk: Buffer) => void;
  /**
   * Further descriptors the child gets (3–1023): `input` bytes are written then closed,
   * `output` chunks are streamed back. Node hands them over as unix sockets, not pipes:
   * reading or writing the descriptor works, opening `/dev/fd/N` by name does not (ENXIO).
   */
  readonly descriptors?: ReadonlyMap<number, StreamingDescriptor> | undefined;
  /** Aborting kills the whole tree. */
  readonly signal?: AbortSignal | undefined;
  /**
   * The launcher the caller runs under: the program is started through its `--nest`, a
   * Landlock domain of its own, so it cannot trace, read or signal the caller (a confined
   * engine's worker; kernel-boundary.md §2, the engine's own process).
   */
  readonly nestWith?: string | undefined;
}

export type StreamingDescriptor =
  | { readonly input: Uint8Array }
  | { readonly output: (chunk: Buffer) => void };

export type StreamingSpawnOutcome =
  | {
      readonly kind: "ran";
      readonly exitCode: number | null;
      readonly signal: NodeJS.Signals | null;
      readonly cancelled: boolean;
      /**
       * Limits of the tree the caller runs under that this program ran into, as seen
       * from here: killed by SIGXFSZ (`file_size`), or not started because no further
       * process could be made (`EAGAIN`, `processes`).
       */
      readonly limitsExceeded: readonly ExceededLimit[];
    }
  | { readonly kind: "denied"; readonly denial: Denial }
  | { readonly kind: "not-found"; readonly program: string };

/** After the leader exits, how long its pipes may still deliver what is buffered. */
const DRAIN_GRACE_MS = 250;

function closedOf(stream: NodeJS.ReadableStream | null): Promise<void> {
  return new Promise((resolve) => {
    if (stream === null) return resolve();
    stream.once("close", () => resolve());
    stream.once("error", () => resolve());
  });
}

/**
 * The in-worker spawn entry (spec §9): one program for an interpreter that owns its own
 * streams. Admission (exec identity, audited), the environment built from scratch, a
 * detached process group, stdin bytes or `/dev/null`, output streamed to callbacks
 * without a copy kept; on exit the group is killed, on abort the whole tree; the leader
 * is always reaped. The L3 boundary is whatever the caller already runs under.
 */
export async function spawnStreaming(
  request: StreamingSpawnRequest,
): Promise<StreamingSpawnOutcome> {
  const admission = await admitSpawn({
    argv: request.argv,
    exec: request.exec,
    cwd: request.cwd,
    audit: request.audit,
    toolName: request.toolName,
  });
  if (admission.kind !== "admitted") return admission;
  request.signal?.throwIfAborted();
  const cover = hostDescriptorsToCover();
  const devNull = cover.length > 0 ? openSync("/dev/null", "r") : -1;
  const stdio: unknown[] = [request.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"];
  const descriptors = request.descriptors ?? new Map<number, StreamingDescriptor>();
  if ([...descriptors.keys()].some((fd) => !Number.isSafeInteger(fd) || fd < 3 || fd > 1023)) {
    throw new ConfigurationError("descriptors must be numbers from 3 to 1023");
  }
  const highest = Math.max(2, ...cover, ...descriptors.keys());
  for (let fd = 3; fd <= highest; fd += 1) {
    stdio.push(descriptors.has(fd) ? "pipe" : cover.includes(fd) ? devNull : "ignore");
  }
  const [resolved, ...rest] = admission.argv as [string, ...string[]];
  const argv0 = request.argv0 ?? request.argv[0] ?? resolved;
  const nest = request.nestWith;
  const [program, args] =
    nest === undefined ? [resolved, rest] : [nest, ["--nest", resolved, "--", argv0, ...rest]];
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(program, args, {
      argv0: nest === undefined ? argv0 : nest,
      cwd: request.cwd,
      env: buildChildEnvironment({
        home: request.home,
        tmpdir: request.tmpdir,
        callerEnv: request.env,
      }),
      stdio: stdio as never,
      detached: true,
      windowsHide: true,
    });
  } finally {
    if (devNull >= 0) closeSync(devNull);
  }
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    errno?: string | undefined;
  }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", (error: NodeJS.ErrnoException) =>
      resolve({ code: 127, signal: null, errno: error.code }),
    );
  });
  child.stdout?.on("data", request.onStdout);
  child.stderr?.on("data", request.onStderr);
  if (child.stdin && request.stdin !== undefined) void pumpInput(child.stdin, request.stdin);
  const extraStreams: NodeJS.ReadableStream[] = [];
  for (const [fd, descriptor] of descriptors) {
    const pipe = child.stdio[fd] as (NodeJS.ReadWriteStream & { destroy(): void }) | null;
    if (pipe === null || pipe === undefined) continue;
    pipe.on("error", () => undefined);
    if ("input" in descriptor) pipe.end(descriptor.input);
    else {
      pipe.on("data", descriptor.output);
      extraStreams.push(pipe);
    }
  }
  let cancelled = false;
  const onAbort = () => {
    cancelled = true;
    if (child.pid !== undefined) killProcessTree(child.pid);
  };
  request.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const exit = await exited;
    if (child.pid !== undefined) killProcessGroup(child.pid);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([child.stdout, child.stderr, ...extraStreams].map(closedOf)),
      new Promise((resolve) => {
        timer = setTimeout(resolve, DRAIN_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
    for (const stream of [child.stdout, child.stderr, ...extraStreams]) {
      (stream as { destroy?: () => void } | null)?.destroy?.();
    }
    const limitsExceeded: ExceededLimit[] =
      exit.signal === "SIGXFSZ" ? ["file_size"] : exit.errno === "EAGAIN" ? ["processes"] : [];
    return { kind: "ran", exitCode: exit.code, signal: exit.signal, cancelled, limitsExceeded };
  } finally {
    request.signal?.removeEventListener("abort", onAbort);
  }
}
