import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";
import { ServedChild } from "./served-child.js";

/** What the server is asked to start: the argv and environment exactly as spawned. */
export interface ServedSpawn {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /**
   * Descriptors 0, 1, 2: `n` /dev/null, `p` a stream to the host, `c` closed, `m` (2 only)
   * as 1, `l` a pipeline link: for 0 a pipe from the stdout of the request that names this
   * child as `to`, for 1 and 2 the stdin pipe of `to`.
   */
  readonly io: `${"n" | "p" | "l"}${"n" | "p" | "c" | "l"}${"n" | "p" | "c" | "m" | "l"}`;
  /** Descriptors 3, 4, …: a socket of this process handed over, or `null` for /dev/null. */
  readonly descriptors: readonly (Socket | null)[];
  /** The next stage of a pipeline (started by this server with stdin `l`): where `l` writes. */
  readonly to?: ServedChild | undefined;
}

type Message =
  | { bridle: "stdio"; id: number; fd: number }
  | { bridle: "started"; id: number; pid: number }
  | { bridle: "exit"; id: number; code?: number; signal?: number; errno?: number };

function payload(request: ServedSpawn): string {
  const slots = request.descriptors.map((socket) => (socket === null ? "n" : "h")).join("");
  const env = Object.entries(request.env).map(([name, value]) => `${name}=${value}`);
  const fields = [request.cwd, request.io, slots, String(request.argv.length), ...request.argv];
  for (const field of [...fields, ...env]) {
    if (field.includes("\0")) throw new TypeError("spawn: a field contains a NUL byte");
  }
  return Buffer.from([...fields, ...env].map((field) => `${field}\0`).join("")).toString("base64");
}

/**
 * One host's spawn server (`bridle-launch --serve`, ADR 0023): started on first use,
 * it forks and execs each request, so the host's event loop never waits on a fork of
 * itself or a child's exec. It never keeps the host alive by itself: its channel is
 * referenced only while a held child runs. If it dies, every child it had not reported
 * fails, and the next request starts a new one.
 */
export class SpawnServer {
  #process: ChildProcess | undefined;
  readonly #children = new Map<number, ServedChild>();
  readonly #ids = new WeakMap<ServedChild, number>();
  #nextId = 1;
  #held = 0;

  constructor(private readonly launcher: string) {}

  spawn(request: ServedSpawn): ServedChild {
    const to = request.to === undefined ? undefined : this.#ids.get(request.to);
    if (request.to !== undefined && to === undefined) {
      throw new TypeError("spawn: the next stage was not started by this server");
    }
    const server = this.#server();
    const id = this.#nextId++;
    const child = new ServedChild((held) => this.#hold(held));
    this.#children.set(id, child);
    this.#ids.set(child, id);
    this.#hold(true);
    request.descriptors.forEach((socket, index) => {
      if (socket !== null)
        server.send({ bridle: "fd", id, slot: 3 + index }, socket, { keepOpen: true });
    });
    server.send({ bridle: "spawn", id, ...(to === undefined ? {} : { to }), p: payload(request) });
    return child;
  }

  #server(): ChildProcess {
    if (this.#process !== undefined) return this.#process;
    const server = spawn(this.launcher, ["--serve"], {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
      env: {},
    });
    this.#process = server;
    server.unref();
    server.channel?.unref();
    server.on("message", (message: Message, handle?: Socket) => this.#receive(message, handle));
    const gone = () => this.#lost(server);
    server.once("exit", gone);
    server.once("error", gone);
    server.channel?.on("error", () => undefined);
    return server;
  }

  #receive(message: Message, handle: Socket | undefined): void {
    const child = this.#children.get(message.id);
    if (child === undefined) return void handle?.destroy();
    if (message.bridle === "stdio" && handle !== undefined) {
      child.received(message.fd, handle);
    } else if (message.bridle === "started") {
      child.started(message.pid);
    } else if (message.bridle === "exit") {
      this.#children.delete(message.id);
      child.exited(message);
    }
  }

  #hold(held: boolean): void {
    this.#held += held ? 1 : -1;
    const channel = this.#process?.channel;
    if (held && this.#held === 1) channel?.ref();
    if (!held && this.#held === 0) channel?.unref();
  }

  #lost(server: ChildProcess): void {
    if (this.#process !== server) return;
    this.#process = undefined;
    const orphans = [...this.#children.values()];
    this.#children.clear();
    for (const child of orphans) child.exited({ errno: 32 /* EPIPE: the server is gone */ });
  }
}

const servers = new Map<string, SpawnServer>();

/**
 * The spawn server of `launcher` for this process, or `undefined` where spawns go
 * through `child_process` directly (`AGENT_BRIDLE_SPAWN_SERVER=off`: for comparison
 * and diagnosis).
 */
export function spawnServerOf(launcher: string): SpawnServer | undefined {
  if (process.env.AGENT_BRIDLE_SPAWN_SERVER === "off") return undefined;
  let server = servers.get(launcher);
  if (server === undefined) {
    server = new SpawnServer(launcher);
    servers.set(launcher, server);
  }
  return server;
}
