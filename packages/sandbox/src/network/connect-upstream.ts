import { connect, type Socket } from "node:net";

/**
 * The first of `addresses` (in order) that accepts a TCP connection to `port`, each given
 * `timeoutMs`; undefined when none does. Half-open: an end of file from either side is
 * passed on, not a close. `track` sees every socket tried (the proxy closes them at the end).
 */
export async function connectUpstream(
  addresses: readonly string[],
  port: number,
  timeoutMs: number,
  track: (socket: Socket) => void,
): Promise<Socket | undefined> {
  for (const host of addresses) {
    const socket = connect({ host, port, allowHalfOpen: true });
    track(socket);
    const connected = await new Promise<boolean>((resolve) => {
      socket.setTimeout(timeoutMs, () => {
        socket.destroy();
        resolve(false);
      });
      socket.once("connect", () => resolve(true));
      socket.once("error", () => resolve(false));
      socket.once("close", () => resolve(false));
    });
    if (connected) {
      socket.setTimeout(0);
      return socket;
    }
    socket.destroy();
  }
  return undefined;
}
