/**
 * Starts the bundled bash worker by hand — not through the engine — so a test can play
 * the parts the engine never plays: a forger, a process that is not the worker's
 * parent, a parent of another image. The frames are the real ones (control-frames.ts).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { defaultPathPolicy, Gate, top } from "@agent-bridle/core";
import { locateLauncher, openPrivateChannel } from "@agent-bridle/sandbox";
import { workerCommand } from "../../src/tool/worker-file.js";
import {
  encodeControl,
  LAUNCH_MAGIC,
  LAUNCHER_VARIABLE,
  type LaunchBody,
  NONCE_VARIABLE,
  REQUEST_MAGIC,
  WORKER_PROTOCOL_VERSION,
} from "../../src/worker/control-frames.js";

export const freshNonce = () => randomBytes(32).toString("hex");

/** A launch frame's body as the engine would build it, for an all-`all` grant. */
export function launchBody(nonce: string, overrides: Partial<LaunchBody> = {}): LaunchBody {
  const cx = new Gate({
    pathPolicy: defaultPathPolicy({ platform: "linux", home: undefined }),
  }).authorize({ name: "shell", required: top() }, top());
  return {
    version: WORKER_PROTOCOL_VERSION,
    nonce,
    tool: cx.toolName,
    caveats: cx.caveats,
    floor: cx.strengthFloor,
    path_policy: { blocked: cx.pathPolicy.blocked, writeBlocked: cx.pathPolicy.writeBlocked },
    max_output_bytes: 1 << 20,
    max_written_bytes: 1 << 30,
    idle_ms: 10_000,
    ...overrides,
  };
}

export const launchFrame = (body: unknown) => encodeControl(LAUNCH_MAGIC, body);

export const requestFrame = (nonce: string, cmd: string, cwd: string) =>
  encodeControl(REQUEST_MAGIC, { nonce, cmd, cwd, env: {}, timeout_ms: 10_000 });

export interface HandRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Everything the worker wrote on the channel (acknowledgement, result frames). */
  readonly channel: Buffer;
}

export interface HandRunOptions {
  /** Bytes this process writes on the channel before ending its side. */
  readonly send: Buffer;
  /** The worker's environment (nonce, launcher). */
  readonly env: Record<string, string>;
  /**
   * Wraps the worker's argv: `undefined` starts it as this process's child; otherwise the
   * returned argv is started instead (an intermediate process that starts the worker).
   */
  readonly wrap?: (workerArgv: readonly string[]) => readonly string[];
  /** What descriptor 3 is: this process's end of a private channel (default) or a file. */
  readonly descriptor3?: number;
}

/** Runs a worker started by hand with descriptor 3 as given; resolves when it exits. */
export async function handRun(options: HandRunOptions): Promise<HandRun> {
  const channel = options.descriptor3 === undefined ? await openPrivateChannel() : undefined;
  const argv = options.wrap ? options.wrap(workerCommand().argv) : workerCommand().argv;
  const child = spawn(argv[0] as string, argv.slice(1), {
    stdio: ["ignore", "pipe", "pipe", channel?.childFd ?? (options.descriptor3 as number)],
    env: options.env,
  });
  channel?.releaseChildEnd();
  const received: Buffer[] = [];
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
  if (channel) {
    channel.parent.on("error", () => undefined);
    channel.parent.on("data", (chunk: Buffer) => received.push(chunk));
    channel.parent.resume();
    channel.parent.end(options.send);
  }
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  channel?.parent.destroy();
  return {
    status,
    stdout: Buffer.concat(stdout).toString("utf8"),
    stderr: Buffer.concat(stderr).toString("utf8"),
    channel: Buffer.concat(received),
  };
}

/** The launcher the engine would name to its worker (for the kernel-attested peer check). */
export async function launcherPath(): Promise<string | undefined> {
  return (await locateLauncher().catch(() => undefined))?.path;
}

export function workerEnv(nonce: string, launcher: string | undefined): Record<string, string> {
  return { [NONCE_VARIABLE]: nonce, ...(launcher ? { [LAUNCHER_VARIABLE]: launcher } : {}) };
}
