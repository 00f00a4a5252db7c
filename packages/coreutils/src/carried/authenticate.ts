import { fstatSync } from "node:fs";
import { Socket } from "node:net";
import { proveParent } from "@agent-bridle/sandbox";
import {
  ACK_BYTES,
  bodyLength,
  type CarriedInvocation,
  carriedIdentity,
  checkBody,
  encodeAck,
  HEADER_BYTES,
} from "./carried-frame.js";

/** The private channel's descriptor in the carried entry. */
export const CHANNEL_FD = 3;
/** A parent that does not deliver its frame by then is not one. */
const FRAME_TIMEOUT_MS = 10_000;

/** Reads exactly one frame, then requires the parent's end of stream (no second frame). */
function readOneFrame(channel: Socket): Promise<Buffer | string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let expected: number | undefined;
    const finish = (result: Buffer | string) => {
      clearTimeout(timer);
      channel.removeAllListeners("data");
      channel.removeAllListeners("end");
      resolve(result);
    };
    const timer = setTimeout(() => finish("no frame from the parent in time"), FRAME_TIMEOUT_MS);
    channel.on("error", () => finish("the private channel failed"));
    channel.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (expected === undefined && size >= HEADER_BYTES) {
        const length = bodyLength(Buffer.concat(chunks).subarray(0, HEADER_BYTES));
        if (typeof length === "string") return finish(length);
        expected = HEADER_BYTES + length;
      }
      if (expected !== undefined && size > expected) finish("more than one frame");
    });
    channel.on("end", () => {
      if (expected === undefined || size < expected) {
        return finish("the channel closed before a complete frame");
      }
      finish(Buffer.concat(chunks).subarray(HEADER_BYTES));
    });
  });
}

function acknowledge(channel: Socket, ack: Buffer): Promise<void> {
  return new Promise((resolve) => {
    channel.once("error", () => resolve());
    channel.end(ack, () => resolve());
  });
}

/**
 * The carried entry's authentication (ADR 0007), before anything else happens: a
 * connected socket on descriptor 3 whose peer is the launching parent, exactly one
 * frame on it naming this process's own name and argv, then the end of the stream.
 * Acknowledges and closes the channel. Returns `undefined` when authenticated, else the
 * reason.
 */
export async function authenticate(invocation: CarriedInvocation): Promise<string | undefined> {
  try {
    if (!fstatSync(CHANNEL_FD).isSocket()) return `descriptor ${CHANNEL_FD} is not a socket`;
  } catch {
    return `no private channel on descriptor ${CHANNEL_FD}`;
  }
  const proof = await proveParent();
  if (typeof proof === "string") return proof;
  let channel: Socket;
  try {
    channel = new Socket({ fd: CHANNEL_FD, readable: true, writable: true, allowHalfOpen: true });
  } catch {
    return `descriptor ${CHANNEL_FD} is not a usable channel`;
  }
  try {
    const body = await readOneFrame(channel);
    if (typeof body === "string") return body;
    const checked = checkBody(body, carriedIdentity(invocation));
    if (typeof checked === "string") return checked;
    if (process.ppid !== proof.parentPid) return "the parent changed during authentication";
    const ack = encodeAck(checked.nonce);
    if (ack.length !== ACK_BYTES) return "internal: acknowledgement size";
    await acknowledge(channel, ack);
    return undefined;
  } finally {
    channel.destroy();
  }
}
