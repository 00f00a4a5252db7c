import { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import { constants } from "node:os";
import { PassThrough, type Readable, type Writable } from "node:stream";

const signalNames = new Map<number, NodeJS.Signals>(
  Object.entries(constants.signals).map(([name, number]) => [number, name as NodeJS.Signals]),
);

/** The part of a `ChildProcess` the funnel uses, for a child the spawn server started. */
export interface ServedChildEvents {
  spawn: [];
  exit: [code: number | null, signal: NodeJS.Signals | null];
  error: [error: NodeJS.ErrnoException];
}

/**
 * A child of the spawn server, seen from the host: its pid once started, the host's ends
 * of the standard streams the request asked for (unix stream sockets, as Node's own
 * `"pipe"` entries are), and `spawn`, `exit` and `error` as a `ChildProcess` emits them.
 */
export class ServedChild extends EventEmitter<ServedChildEvents> {
  pid: number | undefined;
  readonly stdio: (Readable | Writable | null)[] = [null, null, null];
  #held = true;
  #ended = false;
  readonly #sockets: Socket[] = [];

  constructor(private readonly onHold: (held: boolean) => void) {
    super();
  }

  get stdin(): Writable | null {
    return this.stdio[0] as Writable | null;
  }

  get stdout(): Readable | null {
    return this.stdio[1] as Readable | null;
  }

  get stderr(): Readable | null {
    return this.stdio[2] as Readable | null;
  }

  /** The channel of a `ChildProcess`: a served child never has one. */
  readonly channel = undefined;

  ref(): void {
    this.#hold(true);
  }

  unref(): void {
    this.#hold(false);
  }

  #hold(held: boolean): void {
    for (const socket of this.#sockets) {
      if (held) socket.ref();
      else socket.unref();
    }
    if (this.#ended || this.#held === held) return;
    this.#held = held;
    this.onHold(held);
  }

  /**
   * @internal The host's end of the child's descriptor `fd` (a stream from the child).
   * Node reads a received socket at once, and emits the server's messages a tick later:
   * a short-lived child's stream may have ended before `spawn` is emitted. What it sent
   * waits in a pass-through, whose end only comes once read, as a `ChildProcess` pipe's.
   */
  received(fd: number, socket: Socket): void {
    const stream = new PassThrough();
    socket.on("error", () => stream.end());
    // Destroying the stream (the funnel's grace after a kill) closes the socket too.
    stream.once("close", () => socket.destroy());
    socket.pipe(stream);
    if (!this.#held) socket.unref();
    this.#sockets.push(socket);
    this.stdio[fd] = stream;
  }

  /** @internal The server's messages about this child. */
  started(pid: number): void {
    this.pid = pid;
    this.emit("spawn");
  }

  /** @internal */
  exited(report: { code?: number; signal?: number; errno?: number }): void {
    if (this.#ended) return;
    this.#hold(false);
    this.#ended = true;
    if (report.errno !== undefined) {
      const error = new Error(`spawn failed: errno ${report.errno}`) as NodeJS.ErrnoException;
      error.errno = report.errno;
      error.code = errnoName(report.errno);
      this.emit("error", error);
      return;
    }
    const signal = report.signal === undefined ? null : (signalNames.get(report.signal) ?? null);
    this.emit("exit", signal === null ? (report.code ?? null) : null, signal);
  }
}

function errnoName(errno: number): string {
  for (const [name, value] of Object.entries(constants.errno)) if (value === errno) return name;
  return `E${errno}`;
}
