import type { FrontResult, ProxyRequest } from "./proxy-request.js";
import type { SocketReader } from "./socket-reader.js";

const MAX_HEAD_BYTES = 64 * 1024;
/** Headers meant for the proxy, or for one hop, and `Host` (set from the URI): never forwarded. */
const HOP_HEADERS = new Set([
  "proxy-connection",
  "proxy-authorization",
  "connection",
  "keep-alive",
  "host",
]);

function answer(status: string, text: string, extra = ""): Buffer {
  const body = `${text}\n`;
  return Buffer.from(
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}

/** `host:port`, `[v6]:port` → host and port (default `fallback`), or undefined. */
export function splitAuthority(authority: string, fallback?: number) {
  const match = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(authority);
  if (!match) return undefined;
  const port = match[2] === undefined ? fallback : Number(match[2]);
  if (port === undefined || port < 1 || port > 65535) return undefined;
  const host = match[1] as string;
  return { host: host.startsWith("[") ? host.slice(1, -1) : host, port };
}

function requestOf(
  host: string,
  port: number,
  upstreamPrefix: Buffer,
  tunnel: boolean,
): ProxyRequest {
  return {
    host,
    port,
    upstreamPrefix,
    accept: () =>
      tunnel ? Buffer.from("HTTP/1.1 200 Connection Established\r\n\r\n") : Buffer.alloc(0),
    refuse: (reason) =>
      answer(
        "403 Forbidden",
        `bridle: NET_HOST_NOT_GRANTED: ${reason}`,
        "X-Bridle-Denial: NET_HOST_NOT_GRANTED\r\n",
      ),
    busy: () =>
      answer("503 Service Unavailable", "bridle: LIMIT_EXCEEDED: too many connections at once"),
    unreachable: () => answer("502 Bad Gateway", `bridle: ${host}:${port} cannot be reached`),
  };
}

/**
 * The HTTP front (port 3128 in the call's namespace): `CONNECT host:port` tunnels, and
 * plain-HTTP requests in absolute form are forwarded, one request per connection
 * (`Connection: close` upstream), with the request line in origin form.
 */
export async function readHttpRequest(reader: SocketReader): Promise<FrontResult> {
  const head = await reader.take((buffer) => {
    const end = buffer.indexOf("\r\n\r\n");
    return end < 0 ? undefined : end + 4;
  }, MAX_HEAD_BYTES);
  if (head === undefined) {
    return {
      kind: "malformed",
      answer: answer("400 Bad Request", "bridle: malformed request head"),
    };
  }
  const lines = head.toString("latin1").split("\r\n").slice(0, -2);
  const [method, target, version] = (lines[0] ?? "").split(" ");
  if (method === undefined || target === undefined || !/^HTTP\/1\.[01]$/.test(version ?? "")) {
    return {
      kind: "malformed",
      answer: answer("400 Bad Request", "bridle: malformed request line"),
    };
  }
  if (method === "CONNECT") {
    const authority = splitAuthority(target);
    if (authority === undefined) {
      return {
        kind: "malformed",
        answer: answer("400 Bad Request", "bridle: CONNECT needs host:port"),
      };
    }
    return {
      kind: "request",
      request: requestOf(authority.host, authority.port, Buffer.alloc(0), true),
    };
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return {
      kind: "malformed",
      answer: answer("400 Bad Request", "bridle: a proxy request needs an absolute http:// URL"),
    };
  }
  if (url.protocol !== "http:") {
    return {
      kind: "malformed",
      answer: answer(
        "400 Bad Request",
        "bridle: only http:// is forwarded; https goes through CONNECT",
      ),
    };
  }
  const port = url.port === "" ? 80 : Number(url.port);
  // The Host header names the URI's authority (RFC 9112 §3.2.2): the decided host, not
  // whatever the client wrote there.
  const headers = lines
    .slice(1)
    .filter((line) => !HOP_HEADERS.has(line.split(":")[0]?.trim().toLowerCase() ?? ""));
  headers.unshift(`Host: ${url.host}`);
  const rewritten = [
    `${method} ${url.pathname}${url.search} ${version}`,
    ...headers,
    "Connection: close",
    "",
    "",
  ];
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return {
    kind: "request",
    request: requestOf(host, port, Buffer.from(rewritten.join("\r\n"), "latin1"), false),
  };
}
