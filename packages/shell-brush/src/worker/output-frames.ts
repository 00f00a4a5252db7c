/**
 * The worker's result stream (reference §5.5, "ABES" frames), written on the private
 * channel only, never on the worker's stdout. Header: magic `ABES`, version 1, kind,
 * sequence (u64 LE, contiguous from 0), payload length (u32 LE).
 */

export const FRAME_MAGIC = Buffer.from("ABES", "latin1");
export const FRAME_VERSION = 1;
export const FRAME_HEADER_BYTES = 18;
/** No frame payload is larger; output is packed into chunks of at most `OUTPUT_CHUNK_BYTES`. */
export const MAX_FRAME_PAYLOAD = 1 << 20;
export const OUTPUT_CHUNK_BYTES = 64 * 1024;

export const FrameKind = Object.freeze({
  started: 1,
  stdout: 2,
  stderr: 3,
  denied: 4,
  terminal: 5,
  truncated: 6,
  /** An external spawn and its exec decision, for the host's `AuditSink`. */
  spawn: 7,
});
export type FrameKind = (typeof FrameKind)[keyof typeof FrameKind];

/** Bytes the worker counted but did not send (over the per-stream cap), and lost events. */
export interface DroppedTotals {
  readonly stdout_bytes: number;
  readonly stderr_bytes: number;
  readonly events: number;
}

/** The last frame: the shell's status, the denials already streamed, drop totals. */
export interface TerminalPayload {
  readonly exit_code: number;
  readonly denials: readonly unknown[];
  readonly error: string | null;
  readonly dropped: DroppedTotals;
}

/** A spawn the interpreter started or refused (argv as spelled, resolved program). */
export interface SpawnEventPayload {
  readonly argv: readonly string[];
  readonly decision: "allowed" | "denied";
  readonly code?: string | undefined;
}

export function encodeFrame(kind: FrameKind, sequence: number, payload: Uint8Array): Buffer {
  if (payload.length > MAX_FRAME_PAYLOAD) throw new RangeError("frame payload over 1 MiB");
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payload.length);
  FRAME_MAGIC.copy(frame, 0);
  frame.writeUInt8(FRAME_VERSION, 4);
  frame.writeUInt8(kind, 5);
  frame.writeBigUInt64LE(BigInt(sequence), 6);
  frame.writeUInt32LE(payload.length, 14);
  frame.set(payload, FRAME_HEADER_BYTES);
  return frame;
}

export function jsonPayload(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), "utf8");
}
