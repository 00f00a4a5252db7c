import { connect, type Socket } from "node:net";
import { InputSource, type OutputSink } from "./io.js";

/**
 * bash's `/dev/tcp/<host>/<port>` (network.md §6). The worker runs inside the call's
 * network namespace, so the kernel already decides what a connection reaches; under a
 * host allow-list the funnel points `HTTPS_PROXY` (after the caller's variables) at the
 * proxy port, and the connection is a `CONNECT` through the call's egress proxy: the same
 * decision, denial and audit event as any program's. Without a proxy the connection is
 * direct (`net: "all"`; under `net: { only: [] }` the socket is refused).
 */
const DEV_TCP = /^\/dev\/tcp\/([^/]+)\/(\d{1,5})$/;

export interface DevTcpTarget {
  readonly host: string;
  readonly port: number;
}

export function devTcpTarget(path: string): DevTcpTarget | undefined {
  const match = DEV_TCP.exec(path);
  if (!match) return undefined;
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { host: match[1] as string, port } : undefined;
}

export type DevTcpOpened =
  | { readonly ok: true; readonly socket: Socket; readonly early: Buffer }
  | { readonly ok: false; readonly message: string };

function opened(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.once("connect", () => {
      socket.off("error", reject);
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

function errorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM") return "Permission denied";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "Name or service not known";
  return "Connection refused";
}

/** The CONNECT answer's status line and the bytes after its head. */
function tunnelAnswer(socket: Socket): Promise<{ status: number; early: Buffer }> {
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      socket.off("data", onData);
      socket.pause();
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head.toString("latin1"))?.[1] ?? 0);
      resolve({ status, early: head.subarray(end + 4) });
    };
    socket.on("data", onData);
    socket.once("end", () => reject(new Error("the proxy closed the connection")));
    socket.once("error", reject);
  });
}

export async function openDevTcp(
  target: DevTcpTarget,
  env: NodeJS.ProcessEnv = process.env,
): Promise<DevTcpOpened> {
  const proxy = env.HTTPS_PROXY ?? env.https_proxy;
  try {
    if (proxy === undefined || proxy === "") {
      return { ok: true, socket: await opened(target.host, target.port), early: Buffer.alloc(0) };
    }
    const via = new URL(proxy);
    const socket = await opened(via.hostname, Number(via.port || 80));
    const authority = target.host.includes(":") ? `[${target.host}]` : target.host;
    socket.write(
      `CONNECT ${authority}:${target.port} HTTP/1.1\r\nHost: ${authority}:${target.port}\r\n\r\n`,
    );
    const { status, early } = await tunnelAnswer(socket);
    if (status === 200) return { ok: true, socket, early };
    socket.destroy();
    return { ok: false, message: status === 403 ? "Permission denied" : "Connection refused" };
  } catch (error) {
    return { ok: false, message: errorText(error) };
  }
}

/** Everything the peer sends until it closes (what `< /dev/tcp/...` reads). */
export function readAll(socket: Socket, early: Buffer): Promise<Uint8Array> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [early];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.once("close", () => resolve(Buffer.concat(chunks)));
    socket.once("error", () => {});
    socket.end();
    socket.resume();
  });
}

/** What `> /dev/tcp/...` writes to: the connection, ended when the command ends. */
export class SocketSink implements OutputSink {
  constructor(private readonly socket: Socket) {
    socket.on("error", () => {});
    socket.resume(); // whatever the peer answers is not read by a `>` redirection
  }

  write(chunk: Uint8Array | string): void {
    if (!this.socket.destroyed) this.socket.write(chunk);
  }

  close(): Promise<void> {
    return endSocket(this.socket);
  }
}

/** Ends `socket` for writing, then closes it once the peer did (at most 5 s later). */
function endSocket(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve();
    socket.once("close", () => resolve());
    socket.end();
    setTimeout(() => {
      socket.destroy();
    }, 5000).unref();
  });
}

/**
 * What `<>` on `/dev/tcp` opens: one connection both ways, as in bash. Reading it gives
 * the peer's bytes as they arrive (a streaming input: `read` and programs wait for more
 * until the peer ends); writing it (`>&N`) sends. Closed when the command — or, for
 * `exec`, the script — ends.
 */
export class SocketChannel extends InputSource implements OutputSink {
  constructor(
    private readonly socket: Socket,
    early: Buffer,
  ) {
    super(new Uint8Array(), true);
    if (early.length > 0) this.append(early);
    socket.on("data", (chunk: Buffer) => {
      try {
        this.append(chunk);
      } catch {
        socket.destroy(); // nobody reads any more
      }
    });
    socket.once("end", () => this.end());
    socket.once("close", () => this.end());
    socket.on("error", () => {});
    socket.resume();
  }

  write(chunk: Uint8Array | string): void {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(chunk);
  }

  close(): Promise<void> {
    return endSocket(this.socket);
  }
}
