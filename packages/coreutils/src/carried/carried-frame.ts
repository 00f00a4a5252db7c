import { createHash } from "node:crypto";
import {
  encodeFrame,
  type FrameSpec,
  frameMagic,
  encodeAck as sandboxAck,
} from "@agent-bridle/sandbox";

/** Domain separation for the identity of one carried invocation (reference §6.3). */
export const CARRIED_IDENTITY_DOMAIN = "agent-bridle/carried-coreutil/v1";
export const NONCE_BYTES = 32;
const DIGEST_BYTES = 32;
/** The request frame (sandbox's private-channel frame): nonce ‖ digest ‖ identity, ≤ 4 MiB. */
export const REQUEST_FRAME: FrameSpec = Object.freeze({
  magic: frameMagic("ABCU-R1\0"),
  minBody: NONCE_BYTES + DIGEST_BYTES,
  maxBody: 4 * 1024 * 1024,
});
/** The child's acknowledgement's magic (followed by the request's nonce). */
const ACK_MAGIC = frameMagic("ABCU-A1\0");
export const ACK_BYTES = ACK_MAGIC.length + NONCE_BYTES;

/** What the parent asks the carried entry to run. */
export interface CarriedInvocation {
  /** The utility's name (`cat`, `ls`, …). */
  readonly name: string;
  /** Its arguments, after the name. */
  readonly argv: readonly string[];
}

function u64(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(BigInt(value));
  return bytes;
}

/**
 * The exact identity: domain ‖ u64 LE name length ‖ name ‖ u64 LE argument count ‖ for
 * each argument u64 LE length ‖ bytes (UTF-8, as the child's `process.argv` decodes
 * them). Binds the name, every argument boundary and the order.
 */
export function carriedIdentity(invocation: CarriedInvocation): Buffer {
  const parts: Buffer[] = [Buffer.from(CARRIED_IDENTITY_DOMAIN, "latin1")];
  const name = Buffer.from(invocation.name, "utf8");
  parts.push(u64(name.length), name, u64(invocation.argv.length));
  for (const argument of invocation.argv) {
    const bytes = Buffer.from(argument, "utf8");
    parts.push(u64(bytes.length), bytes);
  }
  return Buffer.concat(parts);
}

const digestOf = (nonce: Uint8Array, identity: Uint8Array) =>
  createHash("sha256").update(nonce).update(identity).digest();

/** The request frame: nonce ‖ SHA-256(nonce ‖ identity) ‖ identity. */
export function encodeRequest(nonce: Buffer, identity: Buffer): Buffer {
  return encodeFrame(REQUEST_FRAME, Buffer.concat([nonce, digestOf(nonce, identity), identity]));
}

/** Checks a body against the identity this process computes from its own argv. */
export function checkBody(body: Buffer, own: Buffer): { nonce: Buffer } | string {
  const nonce = body.subarray(0, NONCE_BYTES);
  const digest = body.subarray(NONCE_BYTES, NONCE_BYTES + DIGEST_BYTES);
  const identity = body.subarray(NONCE_BYTES + DIGEST_BYTES);
  if (!identity.equals(own)) {
    return "the frame's identity is not this invocation's name and argv";
  }
  if (!digestOf(nonce, identity).equals(digest)) return "frame digest mismatch";
  return { nonce: Buffer.from(nonce) };
}

export const encodeAck = (nonce: Buffer) => sandboxAck(ACK_MAGIC, nonce);
