import type { Socket } from "node:net";

/**
 * The parent's wait for the child's acknowledgement on the private channel: `true` once
 * the first bytes are exactly `expected` (anything after them is left unread on the
 * socket, paused), `false` when they differ or the channel ends or fails first.
 */
export function readAck(channel: Socket, expected: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    let settled = false;
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < expected.length) return;
      done(received.subarray(0, expected.length).equals(expected));
      if (received.length > expected.length) channel.unshift(received.subarray(expected.length));
    };
    const onEnd = () => done(false);
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      channel.off("data", onData);
      channel.off("end", onEnd);
      channel.off("close", onEnd);
      channel.pause();
      resolve(ok);
    };
    channel.on("data", onData);
    channel.once("end", onEnd);
    channel.once("close", onEnd);
    channel.on("error", () => undefined);
    channel.resume();
  });
}
