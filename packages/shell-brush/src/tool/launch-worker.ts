/**
 * The parent's side of one bash worker: open the private channel, start the bundled
 * worker through the sandbox funnel (the L3 boundary covers it and every descendant),
 * bind the authority with the launch frame and wait for the acknowledgement. The worker
 * then waits — warm — for exactly one request (`WorkerHandle.call`).
 */
import { randomBytes } from "node:crypto";
import type { Socket } from "node:net";
import type { CallAuditSink, EngineCoverage, ToolContext } from "@agent-bridle/core";
import {
  type LaunchedFacts,
  type LaunchHold,
  locateLauncherOnce,
  openPrivateChannel,
  readAck,
  type Sandbox,
  type SandboxRunOutcome,
} from "@agent-bridle/sandbox";
import {
  encodeAck,
  encodeControl,
  LAUNCH_MAGIC,
  LAUNCHER_VARIABLE,
  type LaunchBody,
  NONCE_VARIABLE,
  WORKER_PROTOCOL_VERSION,
} from "../worker/control-frames.js";
import { workerCommand } from "./worker-file.js";

/** The bash engine checks every spawn itself; files and network only the kernel bounds. */
export const BRUSH_COVERAGE: EngineCoverage = Object.freeze({
  fs_read: false,
  fs_write: false,
  exec: true,
  net: false,
});

/** Worker stdout/stderr are diagnostics only (never a result channel): kept this small. */
const DIAGNOSTIC_BYTES = 64 * 1024;
const HANDSHAKE_TIMEOUT_MS = 15_000;

export interface LaunchOptions {
  readonly sandbox: Sandbox;
  readonly cwd: string;
  readonly maxOutputBytes: number;
  /** The bytes the interpreter may write to files itself in one call (ADR 0021). */
  readonly maxWrittenBytes: number;
  /** The longest a call may run (the worker's whole life is bounded by idle + this). */
  readonly maxCallMs: number;
  readonly idleMs: number;
}

export interface LaunchedWorker {
  readonly kind: "ready";
  readonly channel: Socket;
  readonly nonce: string;
  /** Settles when the worker has exited and its tree is reaped. */
  readonly outcome: Promise<SandboxRunOutcome>;
  /**
   * What a result reports (the applied backend, the per-axis report, the private temp
   * directory) and the limits applied to the worker's tree, known at launch.
   */
  readonly facts: LaunchedFacts;
  /** Kills the worker's whole tree. */
  kill(): void;
  /**
   * Kills the worker and its programs but leaves its launcher to reap them and report the
   * limits the tree ran into (`outcome` then completes); `kill` is the fallback.
   */
  end(): void;
  /** Whether the worker (process, pipes, channel) keeps the event loop alive. */
  hold(held: boolean): void;
}

export type LaunchResult =
  | LaunchedWorker
  | { readonly kind: "failed"; readonly outcome: SandboxRunOutcome; readonly reason: string };

async function runtimeFiles(workerFile: string) {
  const launcher = await locateLauncherOnce().catch(() => undefined);
  return {
    launcher: launcher?.path,
    request: {
      runtimeExecutables: [process.execPath, ...(launcher ? [launcher.path] : [])],
      runtimeReadPaths: [
        workerFile,
        ...(launcher ? [launcher.path, `${launcher.path}.sha256`] : []),
      ],
      // The worker reads its 6 MB startup snapshot into fresh buffers (sandbox's huge-pages.ts).
      hugePages: true,
    },
  };
}

/** A promise and the function that settles it. */
function signalled(): { readonly promise: Promise<void>; readonly settle: () => void } {
  let settle: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

/**
 * The worker's acknowledgement, then the launch's own report: a spawn server sends that on
 * its own channel, so it may be read second (ADR 0023). False if the launch ends first.
 */
async function handshake(
  channel: Socket,
  ack: Buffer,
  outcome: Promise<unknown>,
  launched: Promise<void>,
): Promise<boolean> {
  const acked = await Promise.race([readAck(channel, ack), outcome.then(() => false)]);
  if (acked) await Promise.race([launched, outcome]);
  return acked;
}

/** `audit`: where the launch's records go (default the context's; see `WorkerPool`). */
export async function launchWorker(
  cx: ToolContext,
  options: LaunchOptions,
  audit: CallAuditSink = cx.audit,
): Promise<LaunchResult> {
  const channel = await openPrivateChannel();
  const nonce = randomBytes(32).toString("hex");
  const killer = new AbortController();
  const command = workerCommand();
  const files = await runtimeFiles(command.file);
  channel.parent.on("error", () => undefined);
  let launchHold: LaunchHold | undefined;
  let launchFacts: LaunchedFacts | undefined;
  const launched = signalled();
  const outcome = options.sandbox.run(
    cx,
    {
      stages: [command.argv],
      cwd: options.cwd,
      env: {
        [NONCE_VARIABLE]: nonce,
        ...(files.launcher ? { [LAUNCHER_VARIABLE]: files.launcher } : {}),
      },
      timeoutMs: options.idleMs + options.maxCallMs + HANDSHAKE_TIMEOUT_MS,
      maxOutputBytes: DIAGNOSTIC_BYTES,
      signal: killer.signal,
      extraDescriptors: [channel.childFd],
      ...files.request,
      // The call's own temp directory (the worker's TMPDIR): process substitutions for
      // programs live there; granted, disclosed, removed when the worker ends.
      privateTmp: true,
      audit,
      onLaunched: (given, facts) => {
        launchHold = given;
        launchFacts = facts;
        launched.settle();
      },
    },
    { coverage: BRUSH_COVERAGE },
  );
  const launch: LaunchBody = {
    version: WORKER_PROTOCOL_VERSION,
    nonce,
    tool: cx.toolName,
    caveats: cx.caveats,
    floor: cx.strengthFloor,
    path_policy: { blocked: cx.pathPolicy.blocked, writeBlocked: cx.pathPolicy.writeBlocked },
    max_output_bytes: options.maxOutputBytes,
    max_written_bytes: options.maxWrittenBytes,
    idle_ms: options.idleMs,
  };
  channel.parent.write(encodeControl(LAUNCH_MAGIC, launch));
  const timer = setTimeout(() => killer.abort(), HANDSHAKE_TIMEOUT_MS);
  const acked = await handshake(channel.parent, encodeAck(nonce), outcome, launched.promise);
  clearTimeout(timer);
  // The worker holds its end now (or never will): this process's copy must go, or the
  // parent would never see the worker's end of stream.
  channel.releaseChildEnd();
  if (!acked || launchFacts === undefined) {
    killer.abort();
    channel.parent.destroy();
    const settled = await outcome;
    const stderr = settled.kind === "ran" ? settled.result.stderr.toString("utf8").trim() : "";
    return { kind: "failed", outcome: settled, reason: stderr || "no acknowledgement" };
  }
  return {
    kind: "ready",
    channel: channel.parent,
    nonce,
    outcome,
    facts: launchFacts,
    kill: () => killer.abort(),
    end: () => (launchHold ? launchHold.end() : killer.abort()),
    hold(held) {
      if (held) {
        launchHold?.ref();
        channel.parent.ref();
      } else {
        launchHold?.unref();
        channel.parent.unref();
      }
    },
  };
}
