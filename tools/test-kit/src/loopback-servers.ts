// Loopback-only test servers for the egress suites (network.md, "Testing without the
// internet"; the sandbox's and the facade's): plain HTTP, HTTPS with a throw-away certificate for `allowed.test`, a raw
// TCP port and a UDP port, each counting what reached it, so a refusal test can assert
// that nothing did.
import { execFileSync } from "node:child_process";
import { createSocket } from "node:dgram";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, createServer as createTcpServer } from "node:net";
import { join } from "node:path";

export const MIB = Buffer.alloc(1 << 20, 0x61);

export interface LoopbackServers {
  readonly http: number;
  readonly https: number;
  readonly tcp: number;
  readonly udp: number;
  /** The certificate `curl --cacert` trusts (PEM path). */
  readonly caFile: string;
  /** Connections or datagrams each server saw. */
  readonly hits: { http: number; https: number; tcp: number; udp: number };
  readonly dir: string;
  close(): Promise<void>;
}

function handler(
  req: import("node:http").IncomingMessage,
  res: import("node:http").ServerResponse,
  root: string,
) {
  if (req.url === "/mib") {
    res.writeHead(200, { "content-length": String(MIB.length) });
    return void res.end(MIB);
  }
  const path = new URL(req.url ?? "/", "http://x").pathname;
  if (path.startsWith("/files/")) {
    try {
      const file = decodeURIComponent(path.slice(7)).replace(/\.\./g, "");
      const body = readFileSync(join(root, file.endsWith("/") ? `${file}index.html` : file));
      const type =
        file.endsWith("/") || file.endsWith(".html") ? "text/html" : "application/octet-stream";
      res.writeHead(200, { "content-length": String(body.length), "content-type": type });
      return void res.end(body);
    } catch {
      res.writeHead(404);
      return void res.end();
    }
  }
  res.writeHead(200, { "content-type": "text/plain" });
  res.end(`hello from ${req.headers.host}\n`);
}

const listen = (server: Server | import("node:net").Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );

/** Starts every server on 127.0.0.1; `root` is served under `/files/`. */
export async function startLoopbackServers(root: string): Promise<LoopbackServers> {
  const dir = mkdtempSync(join(root, "tls-"));
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=allowed.test",
      "-addext",
      "subjectAltName=DNS:allowed.test",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  const hits = { http: 0, https: 0, tcp: 0, udp: 0 };
  const http = createHttpServer((req, res) => handler(req, res, root));
  http.on("connection", () => {
    hits.http += 1;
  });
  const https = createHttpsServer(
    { key: readFileSync(key), cert: readFileSync(cert) },
    (req, res) => handler(req, res, root),
  );
  https.on("connection", () => {
    hits.https += 1;
  });
  const tcp = createTcpServer((socket) => {
    hits.tcp += 1;
    socket.end("tcp hello\n");
  });
  const udp = createSocket("udp4");
  udp.on("message", () => {
    hits.udp += 1;
  });
  const udpPort = await new Promise<number>((resolve) =>
    udp.bind(0, "127.0.0.1", () => resolve(udp.address().port)),
  );
  const ports = { http: await listen(http), https: await listen(https), tcp: await listen(tcp) };
  return {
    ...ports,
    udp: udpPort,
    caFile: cert,
    hits,
    dir,
    async close() {
      http.closeAllConnections();
      https.closeAllConnections();
      for (const server of [http, https, tcp]) server.close();
      udp.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
