/**
 * What the parent sends the worker on the private channel: the launch frame (authority,
 * bound when the worker starts, before any request exists) and then exactly one request
 * frame. Each is sandbox's private-channel frame (magic ‖ u32 LE body length ‖ body)
 * with a JSON body of at most 1 MiB.
 */
import type { Caveats, EnforcementFloor, PathPolicy } from "@agent-bridle/core";
import { encodeAck as ackOf, encodeFrame, type FrameSpec, frameMagic } from "@agent-bridle/sandbox";

export const LAUNCH_MAGIC = frameMagic("ABBW-L1\0");
export const REQUEST_MAGIC = frameMagic("ABBW-R1\0");
/** The worker's acknowledgement of the launch frame: magic ‖ the nonce (hex). */
const ACK_MAGIC = frameMagic("ABBW-A1\0");
export const MAX_CONTROL_BODY = 1 << 20;
export const LAUNCH_FRAME: FrameSpec = Object.freeze({
  magic: LAUNCH_MAGIC,
  maxBody: MAX_CONTROL_BODY,
});
export const REQUEST_FRAME: FrameSpec = Object.freeze({
  magic: REQUEST_MAGIC,
  maxBody: MAX_CONTROL_BODY,
});
export const WORKER_PROTOCOL_VERSION = 1;
/** The only argv the worker entry accepts after its file name. */
export const WORKER_ARGV = Object.freeze(["--agent-bridle-worker", "brush"]);
export const NONCE_VARIABLE = "AGENT_BRIDLE_WORKER_NONCE";
/** The checksum-verified launcher the parent found (for the worker's peer check). */
export const LAUNCHER_VARIABLE = "AGENT_BRIDLE_LAUNCHER";

/** Authority, taken from the parent's minted `ToolContext`, never from a request. */
export interface LaunchBody {
  readonly version: number;
  readonly nonce: string;
  readonly tool: string;
  readonly caveats: Caveats;
  readonly floor: EnforcementFloor;
  readonly path_policy: PathPolicy;
  readonly max_output_bytes: number;
  /** The bytes the interpreter may write to files itself in the call (redirections). */
  readonly max_written_bytes: number;
  /** An idle worker (no request yet) exits after this long. */
  readonly idle_ms: number;
}

/** The call: tool data only. */
export interface RequestBody {
  readonly nonce: string;
  readonly cmd: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** The deadline, relative to when the worker reads the request. */
  readonly timeout_ms: number;
}

/** A control frame of this magic with `body` as JSON (over 1 MiB: `RangeError`). */
export function encodeControl(magic: Buffer, body: unknown): Buffer {
  return encodeFrame(
    { magic, maxBody: MAX_CONTROL_BODY },
    Buffer.from(JSON.stringify(body), "utf8"),
  );
}

/** The JSON body of a control frame, or `undefined` when it does not parse. */
export function decodeControl(body: Buffer): { readonly value: unknown } | undefined {
  try {
    return { value: JSON.parse(body.toString("utf8")) as unknown };
  } catch {
    return undefined;
  }
}

export function encodeAck(nonce: string): Buffer {
  return ackOf(ACK_MAGIC, Buffer.from(nonce, "latin1"));
}
