import type { ChildProcess } from "node:child_process";
import { Server, type Socket } from "node:net";
import { type CallAuditSink, createDenial, type Denial } from "@agent-bridle/core";
import { connectUpstream } from "./connect-upstream.js";
import { decideEgress, grantPatterns } from "./egress-decision.js";
import type { HostResolver } from "./host-resolver.js";
import { readHttpRequest } from "./http-front.js";
import type { FrontResult } from "./proxy-request.js";
import { SocketReader } from "./socket-reader.js";
import { readSocksRequest } from "./socks5-front.js";

/** The proxy's ports inside the call's namespace (nothing else is there). */
export const BRIDGE_HTTP_PORT = 3128;
export const BRIDGE_SOCKS_PORT = 1080;
export const DEFAULT_MAX_CONNECTIONS = 32;
const CONNECT_TIMEOUT_MS = 10_000;
const OPENING_TIMEOUT_MS = 10_000;

export interface EgressProxyOptions {
  /** The grant's `net.only` entries. */
  readonly grant: readonly string[];
  readonly resolver: HostResolver;
  readonly audit: CallAuditSink;
  readonly toolName: string;
  /** Concurrent connections of the call; over it a connection is refused. */
  readonly maxConnections?: number | undefined;
}

/** One call's egress proxy: decides, relays, audits, and closes everything at the end. */
export interface EgressProxy {
  /** The ports the launcher listens on in the call's namespace (its `proxy` lines). */
  readonly ports: readonly { readonly port: number }[];
  /**
   * Takes a launcher's IPC channel: the listeners it hands over (one per port, already
   * listening in the call's namespace) are accepted on here. Nothing else reaches the
   * proxy: it has no socket of its own, on the file system or elsewhere.
   */
  adopt(launcher: ChildProcess): void;
  /** What the call's programs are told (`HTTP_PROXY`, … set after the caller's). */
  readonly environment: Readonly<Record<string, string>>;
  /** Refused connections so far, one per host and port. */
  denials(): readonly Denial[];
  /** Every connection and every adopted listener closed. */
  close(): Promise<void>;
}

function proxyEnvironment(): Record<string, string> {
  const http = `http://127.0.0.1:${BRIDGE_HTTP_PORT}`;
  const socks = `socks5h://127.0.0.1:${BRIDGE_SOCKS_PORT}`;
  const env: Record<string, string> = {};
  for (const [name, value] of [
    ["HTTP_PROXY", http],
    ["HTTPS_PROXY", http],
    ["ALL_PROXY", socks],
    ["NO_PROXY", ""],
  ] as const) {
    env[name] = value;
    env[name.toLowerCase()] = value;
  }
  return env;
}

export async function createEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const patterns = grantPatterns(options.grant);
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const open = new Set<Socket>();
  const refused = new Map<string, Denial>();
  let active = 0;
  let closed = false;

  type Refusal = "NET_HOST_NOT_GRANTED" | "LIMIT_EXCEEDED";
  const audit = (
    host: string,
    port: number,
    code: Refusal | undefined,
    out: number,
    back: number,
  ) =>
    options.audit.record({
      type: "net",
      tool: options.toolName,
      host,
      port,
      decision: code === undefined ? "allowed" : "denied",
      ...(code === undefined ? {} : { code }),
      bytes_out: out,
      bytes_in: back,
    });

  const deny = (host: string, port: number, reason: string) => {
    const key = `${host}:${port}`;
    if (!refused.has(key)) {
      const remedy = `use a host the grant allows, or ask the host to add "${host}" to net.only`;
      refused.set(key, createDenial("net", key, "NET_HOST_NOT_GRANTED", `${reason}; ${remedy}`));
    }
    audit(host, port, "NET_HOST_NOT_GRANTED", 0, 0);
  };

  /** Over the per-call cap: a limit, not a grant decision (one denial per call). */
  const overCap = (host: string, port: number) => {
    if (!refused.has("connections")) {
      refused.set(
        "connections",
        createDenial(
          "net",
          "connections",
          "LIMIT_EXCEEDED",
          `more than ${maxConnections} connections at once through the call's proxy; open fewer at a time`,
        ),
      );
    }
    audit(host, port, "LIMIT_EXCEEDED", 0, 0);
  };

  const track = (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
    socket.on("error", () => {});
  };

  async function serve(client: Socket, front: (reader: SocketReader) => Promise<FrontResult>) {
    track(client);
    if (closed) return void client.destroy();
    active += 1;
    client.once("close", () => {
      active -= 1;
    });
    const timer = setTimeout(() => client.destroy(), OPENING_TIMEOUT_MS);
    const reader = new SocketReader(client);
    const opened = await front(reader);
    clearTimeout(timer);
    if (opened.kind === "malformed") return void client.end(opened.answer);
    const { request } = opened;
    if (active > maxConnections) {
      overCap(request.host, request.port);
      return void client.end(request.busy());
    }
    const decision = await decideEgress(patterns, request.host, request.port, options.resolver);
    if (!decision.allowed) {
      deny(decision.host, request.port, decision.reason);
      return void client.end(request.refuse(decision.reason));
    }
    if (closed || client.destroyed) return;
    // Each usable address in turn (`localhost`: 127.0.0.1, then ::1).
    const upstream = await connectUpstream(
      decision.addresses,
      request.port,
      CONNECT_TIMEOUT_MS,
      track,
    );
    if (upstream === undefined) {
      audit(decision.host, request.port, undefined, 0, 0);
      return void client.end(request.unreachable());
    }
    if (closed || client.destroyed) return void upstream.destroy();
    upstream.setNoDelay(true);
    client.setNoDelay(true);
    const rest = reader.release();
    client.write(request.accept());
    upstream.write(request.upstreamPrefix);
    upstream.write(rest);
    let out = request.upstreamPrefix.length + rest.length;
    let back = 0;
    client.on("data", (chunk: Buffer) => {
      out += chunk.length;
    });
    upstream.on("data", (chunk: Buffer) => {
      back += chunk.length;
    });
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
    upstream.once("close", () => {
      client.end();
      audit(decision.host, request.port, undefined, out, back);
    });
    client.once("close", () => upstream.destroy());
  }

  const fronts = new Map<number, (reader: SocketReader) => Promise<FrontResult>>([
    [BRIDGE_HTTP_PORT, readHttpRequest],
    [BRIDGE_SOCKS_PORT, readSocksRequest],
  ]);
  const servers = new Set<Server>();
  const take = (message: unknown, handle: unknown) => {
    const port = (message as { bridle?: unknown; port?: unknown } | null)?.port;
    const front = typeof port === "number" ? fronts.get(port) : undefined;
    if (!(handle instanceof Server)) return;
    if (closed || front === undefined || (message as { bridle?: unknown }).bridle !== "egress")
      return void handle.close();
    servers.add(handle);
    // Tunnels are half-open both ways: an end of file from either side is passed on.
    (handle as Server & { allowHalfOpen: boolean }).allowHalfOpen = true;
    handle.on("connection", (client: Socket) => {
      serve(client, front).catch(() => client.destroy());
    });
    handle.on("error", () => {});
  };
  return Object.freeze({
    ports: Object.freeze([{ port: BRIDGE_HTTP_PORT }, { port: BRIDGE_SOCKS_PORT }]),
    adopt(launcher: ChildProcess) {
      launcher.on("message", take);
    },
    environment: Object.freeze(proxyEnvironment()),
    denials: () => [...refused.values()],
    async close() {
      closed = true;
      for (const server of servers) server.close();
      for (const socket of open) socket.destroy();
    },
  });
}
