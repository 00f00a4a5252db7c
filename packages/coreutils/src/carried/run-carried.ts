import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigurationError } from "@agent-bridle/core";
import { carriedEntryPath } from "./carried-entry-path.js";
import {
  ACK_BYTES,
  type CarriedInvocation,
  carriedIdentity,
  encodeAck,
  encodeRequest,
  NONCE_BYTES,
} from "./carried-frame.js";

/** What `runCarried` asks its spawner to start: argv, and the channel as descriptor 3. */
export interface CarriedSpawnRequest {
  /** `[node, <carried entry>, "--invoke-bundled", name, …args]`. */
  readonly argv: readonly string[];
  /** Pass exactly these as the child's descriptors 3, 4, … (`extraDescriptors`). */
  readonly extraDescriptors: readonly number[];
}

export interface CarriedRun<T> {
  /** Whatever the spawner returned (e.g. `spawnConfined`'s outcome). */
  readonly outcome: T;
  /** The child acknowledged this call's frame (its nonce): it authenticated and ran. */
  readonly acknowledged: boolean;
}

/** The argv that starts the carried entry for `invocation` under this Node. */
export function carriedArgv(invocation: CarriedInvocation): string[] {
  return [
    process.execPath,
    carriedEntryPath(),
    "--invoke-bundled",
    invocation.name,
    ...invocation.argv,
  ];
}

interface PrivateChannel {
  /** The child's end, as a descriptor number of this process (`extraDescriptors`). */
  readonly childFd: number;
  /** The parent's end. */
  readonly parent: Socket;
  /** Closes this process's copy of the child's end. */
  releaseChildEnd(): void;
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
async function openPrivateChannel(): Promise<PrivateChannel> {
  const directory = await mkdtemp(join(tmpdir(), "agent-bridle-carried-"));
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
      throw new ConfigurationError("the carried entry's private channel has no descriptor");
    }
    return { childFd: fd, parent, releaseChildEnd: () => client.destroy() };
  } finally {
    server.close();
    await rm(directory, { recursive: true, force: true });
  }
}

/** Collects the child's acknowledgement (the first `ACK_BYTES` it sends). */
function acknowledgementOf(channel: Socket): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    channel.on("data", (chunk: Buffer) => chunks.push(chunk));
    channel.once("close", () => resolve(Buffer.concat(chunks)));
    channel.once("error", () => undefined);
    channel.resume();
  });
}

/**
 * Internal (tests): the frame names `frame`, the spawned argv is `argv`, and `trailing`
 * bytes may follow the frame. `runCarried` is this with matching identities.
 */
export async function runWithFrame<T>(
  frame: CarriedInvocation,
  argv: readonly string[],
  spawnVia: (request: CarriedSpawnRequest) => Promise<T>,
  trailing?: Uint8Array,
): Promise<CarriedRun<T>> {
  const channel = await openPrivateChannel();
  const nonce = randomBytes(NONCE_BYTES);
  const acknowledgement = acknowledgementOf(channel.parent);
  try {
    channel.parent.on("error", () => undefined);
    channel.parent.write(encodeRequest(nonce, carriedIdentity(frame)));
    if (trailing !== undefined) channel.parent.write(trailing);
    channel.parent.end();
    let outcome: T;
    try {
      outcome = await spawnVia({ argv, extraDescriptors: [channel.childFd] });
    } finally {
      channel.releaseChildEnd();
    }
    const ack = await acknowledgement;
    const acknowledged =
      ack.length >= ACK_BYTES && ack.subarray(0, ACK_BYTES).equals(encodeAck(nonce));
    return { outcome, acknowledged };
  } finally {
    channel.parent.destroy();
  }
}

/**
 * Runs one carried utility through `spawnVia` (which must hand `extraDescriptors` to the
 * child as descriptors 3, … — `spawnConfined` or `Sandbox.run` do): a private channel
 * carries one frame binding the name and argv; the entry refuses (126) anything else.
 */
export function runCarried<T>(
  invocation: CarriedInvocation,
  spawnVia: (request: CarriedSpawnRequest) => Promise<T>,
): Promise<CarriedRun<T>> {
  return runWithFrame(invocation, carriedArgv(invocation), spawnVia);
}
