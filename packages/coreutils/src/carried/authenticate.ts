import type { Socket } from "node:net";
import { ChannelReader, openChildChannel } from "@agent-bridle/sandbox";
import {
  ACK_BYTES,
  type CarriedInvocation,
  carriedIdentity,
  checkBody,
  encodeAck,
  REQUEST_FRAME,
} from "./carried-frame.js";

/** A parent that does not deliver its frame and close its end by then is not one. */
const FRAME_TIMEOUT_MS = 10_000;

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
  const opened = await openChildChannel();
  if (typeof opened === "string") return opened;
  const { channel, proof } = opened;
  try {
    const deadline = Date.now() + FRAME_TIMEOUT_MS;
    const reader = new ChannelReader(channel, REQUEST_FRAME.maxBody);
    const frame = await reader.frame(REQUEST_FRAME, FRAME_TIMEOUT_MS);
    if ("error" in frame)
      return frame.error === "end" ? "the channel closed before a complete frame" : frame.error;
    const ended = await reader.endOfStream(Math.max(0, deadline - Date.now()));
    if (ended !== undefined) return ended;
    const checked = checkBody(frame.body, carriedIdentity(invocation));
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
