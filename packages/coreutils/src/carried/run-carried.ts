import { randomBytes } from "node:crypto";
import { openPrivateChannel, readAck } from "@agent-bridle/sandbox";
import { carriedEntryPath } from "./carried-entry-path.js";
import {
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
  const acknowledgement = readAck(channel.parent, encodeAck(nonce));
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
    return { outcome, acknowledged: await acknowledgement };
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
