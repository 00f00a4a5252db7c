import type { FrontResult, ProxyRequest } from "./proxy-request.js";
import type { SocketReader } from "./socket-reader.js";

// RFC 1928 reply codes.
const SUCCEEDED = 0;
const GENERAL_FAILURE = 1;
const NOT_ALLOWED = 2;
const HOST_UNREACHABLE = 4;
const COMMAND_NOT_SUPPORTED = 7;
const ADDRESS_NOT_SUPPORTED = 8;

function reply(code: number): Buffer {
  return Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
}

function requestLength(buffer: Buffer): number | undefined {
  if (buffer.length < 5) return undefined;
  switch (buffer[3]) {
    case 1:
      return 10;
    case 3:
      return 7 + (buffer[4] as number);
    case 4:
      return 22;
    default:
      return 4; // an unknown address type: refused below
  }
}

function hostOf(request: Buffer): string | undefined {
  switch (request[3]) {
    case 1:
      return [...request.subarray(4, 8)].join(".");
    case 3:
      return request.subarray(5, 5 + (request[4] as number)).toString("latin1");
    case 4: {
      const groups: string[] = [];
      for (let at = 4; at < 20; at += 2) groups.push(request.readUInt16BE(at).toString(16));
      return groups.join(":");
    }
    default:
      return undefined;
  }
}

/**
 * The SOCKS5 front (port 1080 in the call's namespace): no authentication, `CONNECT` to
 * a domain name (what `socks5h://` sends: the proxy resolves), an IPv4 or an IPv6
 * address; `BIND` and `UDP ASSOCIATE` are refused.
 */
export async function readSocksRequest(reader: SocketReader): Promise<FrontResult> {
  const greeting = await reader.take(
    (buffer) => (buffer.length < 2 ? undefined : 2 + (buffer[1] as number)),
    257,
  );
  if (greeting === undefined || greeting[0] !== 5 || !greeting.subarray(2).includes(0)) {
    return { kind: "malformed", answer: Buffer.from([5, 0xff]) };
  }
  reader.socket.write(Buffer.from([5, 0]));
  const request = await reader.take(requestLength, 262);
  if (request === undefined || request[0] !== 5) return { kind: "malformed", answer: reply(1) };
  if (request[1] !== 1) return { kind: "malformed", answer: reply(COMMAND_NOT_SUPPORTED) };
  const host = hostOf(request);
  if (host === undefined) return { kind: "malformed", answer: reply(ADDRESS_NOT_SUPPORTED) };
  const port = request.readUInt16BE(request.length - 2);
  const socks: ProxyRequest = {
    host,
    port,
    upstreamPrefix: Buffer.alloc(0),
    accept: () => reply(SUCCEEDED),
    refuse: () => reply(NOT_ALLOWED),
    busy: () => reply(GENERAL_FAILURE),
    unreachable: () => reply(HOST_UNREACHABLE),
  };
  return { kind: "request", request: socks };
}
