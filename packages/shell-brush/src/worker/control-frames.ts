/**
 * What the parent sends the worker on the private channel: the launch frame (authority,
 * bound when the worker starts, before any request exists) and then exactly one request
 * frame. Each is magic (8 bytes) ‖ u32 LE body length ‖ JSON body, body ≤ 1 MiB.
 */
import type { Caveats, EnforcementFloor, PathPolicy } from "@agent-bridle/core";

export const LAUNCH_MAGIC = Buffer.from("ABBW-L1\0", "latin1");
export const REQUEST_MAGIC = Buffer.from("ABBW-R1\0", "latin1");
/** The worker's acknowledgement of the launch frame: magic ‖ the nonce (hex). */
export const ACK_MAGIC = Buffer.from("ABBW-A1\0", "latin1");
export const CONTROL_HEADER_BYTES = 12;
export const MAX_CONTROL_BODY = 1 << 20;
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

export function encodeControl(magic: Buffer, body: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(body), "utf8");
  if (json.length > MAX_CONTROL_BODY) throw new RangeError("control frame body over 1 MiB");
  const header = Buffer.alloc(CONTROL_HEADER_BYTES);
  magic.copy(header, 0);
  header.writeUInt32LE(json.length, 8);
  return Buffer.concat([header, json]);
}

export function encodeAck(nonce: string): Buffer {
  return Buffer.concat([ACK_MAGIC, Buffer.from(nonce, "latin1")]);
}
