/**
 * The private channel between an engine and a child it starts through the funnel (the
 * carried coreutils entry, the bash worker): the child's end is handed over as one of
 * `extraDescriptors`, so it arrives as descriptor 3.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigurationError } from "@agent-bridle/core";

export interface PrivateChannel {
  /** The child's end, as a descriptor number of this process (`extraDescriptors`). */
  readonly childFd: number;
  /** The parent's end. */
  readonly parent: Socket;
  /** Closes this process's copy of the child's end. */
  releaseChildEnd(): void;
}

/** Child ends not yet released, by descriptor: what a spawn server can be handed. */
const childEnds = new Map<number, Socket>();

/**
 * The socket holding `fd`, if `fd` is the child's end of a live private channel (the
 * spawn server is handed the socket; a bare descriptor number cannot be sent).
 */
export function privateChannelChildEnd(fd: number): Socket | undefined {
  return childEnds.get(fd);
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve());
  });
}

/**
 * A connected unix stream socket pair, made through a listening socket in a fresh 0700
 * directory that is removed at once. This process both listens and connects, so the
 * kernel attests it as the peer of either end (`SO_PEERCRED`). The connecting end first
 * writes a random token: an intruder's connection (only this uid can reach the
 * directory) is never taken for ours.
 */
export async function openPrivateChannel(): Promise<PrivateChannel> {
  const directory = await mkdtemp(join(tmpdir(), "agent-bridle-channel-"));
  const server = createServer({ allowHalfOpen: true });
  try {
    const path = join(directory, "channel");
    await listen(server, path);
    const token = randomBytes(32);
    const accepted = new Promise<Socket>((resolve) => {
      server.on("connection", (socket) => {
        const received: Buffer[] = [];
        let size = 0;
        const onData = (chunk: Buffer) => {
          received.push(chunk);
          size += chunk.length;
          if (size < token.length) return;
          socket.off("data", onData);
          socket.pause();
          const all = Buffer.concat(received);
          if (!all.subarray(0, token.length).equals(token)) return void socket.destroy();
          if (all.length > token.length) socket.unshift(all.subarray(token.length));
          resolve(socket);
        };
        socket.on("data", onData);
        socket.on("error", () => undefined);
        socket.resume();
      });
    });
    const client = connect({ path, allowHalfOpen: true });
    client.pause();
    await new Promise<void>((resolve, reject) => {
      client.once("error", reject);
      client.once("connect", () => resolve());
    });
    client.write(token);
    const parent = await accepted;
    const fd = (client as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
    if (typeof fd !== "number" || fd < 0) {
      client.destroy();
      parent.destroy();
      throw new ConfigurationError("the private channel has no descriptor");
    }
    childEnds.set(fd, client);
    const releaseChildEnd = () => {
      if (childEnds.get(fd) === client) childEnds.delete(fd);
      client.destroy();
    };
    return { childFd: fd, parent, releaseChildEnd };
  } finally {
    server.close();
    await rm(directory, { recursive: true, force: true });
  }
}
