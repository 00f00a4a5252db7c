/**
 * The child's end of its private channel (the carried coreutils entry, the bash worker),
 * before any byte of it is read: descriptor 3 is a connected socket and its peer is the
 * launching parent (`proveParent`, ADR 0007 and 0008).
 */
import { fstatSync } from "node:fs";
import { Socket } from "node:net";
import type { LauncherBinary } from "../launcher/types.js";
import { type ParentProof, proveParent } from "./parent-proof.js";

/** Where the private channel arrives in the child (the first of `extraDescriptors`). */
export const CHILD_CHANNEL_FD = 3;

export interface ChildChannel {
  readonly channel: Socket;
  readonly proof: ParentProof;
}

/** The proven channel, or why there is none. `locate` is `proveParent`'s. */
export async function openChildChannel(
  locate?: () => Promise<LauncherBinary | undefined>,
): Promise<ChildChannel | string> {
  const fd = CHILD_CHANNEL_FD;
  try {
    if (!fstatSync(fd).isSocket()) return `descriptor ${fd} is not a socket`;
  } catch {
    return `no private channel on descriptor ${fd}`;
  }
  const proof = await proveParent(locate);
  if (typeof proof === "string") return proof;
  try {
    return {
      channel: new Socket({ fd, readable: true, writable: true, allowHalfOpen: true }),
      proof,
    };
  } catch {
    return `descriptor ${fd} is not a usable channel`;
  }
}
