// The egress proxy on its own (no launcher): a stand-in child hands it a listener over
// an IPC channel, as the launcher does, and a client speaks to that listener against a
// loopback server. The decision, the internal-address table and the answers a refused
// client gets; the kernel side is egress.test.ts.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import type { AuditRecord } from "@agent-bridle/core";
import { afterEach, describe, expect, it } from "vitest";
import { createEgressProxy, type EgressProxy } from "../../src/network/egress-proxy.js";
import { testResolver } from "../../src/network/host-resolver.js";
import { isInternalAddress } from "../../src/network/internal-address.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(grant: string[], publicAddresses = ["127.0.0.1"], on = "127.0.0.1") {
  let hits = 0;
  const server: Server = createServer((req, res) =>
    res.end(req.url === "/host" ? `host=${req.headers.host}\n` : "hi\n"),
  );
  server.on("connection", () => {
    hits += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, on, resolve));
  const port = (server.address() as AddressInfo).port;
  const events: AuditRecord[] = [];
  const proxy: EgressProxy = await createEgressProxy({
    grant,
    resolver: testResolver(
      { hosts: { "ok.test": "127.0.0.1" }, publicAddresses },
      isInternalAddress,
    ),
    audit: { record: (event) => events.push(event) },
    toolName: "t",
  });
  cleanups.push(async () => {
    await proxy.close();
    server.close();
  });
  return { proxy, port, http: await handOver(proxy, 3128), events, hits: () => hits };
}

/**
 * A child listens on an ephemeral loopback port and sends the listener over its IPC
 * channel with the message the launcher sends for `port`; the port it really listens on.
 */
async function handOver(proxy: EgressProxy, port: number): Promise<number> {
  const script = `
const server = require("node:net").createServer();
server.listen(0, "127.0.0.1", () => {
  process.send({ bridle: "egress", port: ${port} }, server, () => {
    console.log(server.address().port);
    server.close();
    process.disconnect();
  });
});`;
  const child = spawn(process.execPath, ["-e", script], {
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  proxy.adopt(child);
  const received = once(child, "message");
  const [line] = (await once(child.stdout as NodeJS.ReadableStream, "data")) as [Buffer];
  await received;
  return Number(line.toString().trim());
}

function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    let text = "";
    socket.on("data", (chunk) => (text += chunk));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

describe("the egress proxy", () => {
  it("forwards a granted plain-HTTP request in origin form and audits its bytes", async () => {
    const { http, port, events, hits } = await setUp(["ok.test"]);
    const answer = await exchange(
      http,
      `GET http://ok.test:${port}/x HTTP/1.1\r\nHost: ok.test\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*hi\n$/);
    expect(hits()).toBe(1);
    // The decision is audited once both halves closed (the proxy passes ends on).
    for (let i = 0; i < 100 && events.length === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(events).toContainEqual(
      expect.objectContaining({ type: "net", host: "ok.test", port, decision: "allowed" }),
    );
  });

  it("sends the decided host as Host, whatever the client wrote", async () => {
    const { http, port } = await setUp(["ok.test"]);
    const answer = await exchange(
      http,
      `GET http://ok.test:${port}/host HTTP/1.1\r\nHost: internal.example\r\n\r\n`,
    );
    expect(answer).toContain(`host=ok.test:${port}`);
  });

  it("refuses an ungranted name with 403 and a denial; the server sees nothing", async () => {
    const { http, port, proxy, hits } = await setUp(["other.test"]);
    const answer = await exchange(http, `GET http://ok.test:${port}/ HTTP/1.1\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(answer).toContain("X-Bridle-Denial: NET_HOST_NOT_GRANTED");
    expect(hits()).toBe(0);
    expect(proxy.denials()).toEqual([
      expect.objectContaining({ code: "NET_HOST_NOT_GRANTED", target: `ok.test:${port}` }),
    ]);
  });

  it("answers malformed openings with 400 and reaches nothing", async () => {
    const { http, hits } = await setUp(["ok.test"]);
    expect(await exchange(http, "GET /relative HTTP/1.1\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/);
    expect(await exchange(http, "garbage\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/);
    expect(hits()).toBe(0);
  });

  it("closes every connection when closed", async () => {
    const { http, port, proxy } = await setUp(["ok.test"]);
    const socket = connect(http, "127.0.0.1", () =>
      socket.write(`CONNECT ok.test:${port} HTTP/1.1\r\n\r\n`),
    );
    await new Promise((resolve) => socket.once("data", resolve));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    await proxy.close();
    await closed;
    await expect(exchange(http, "x")).rejects.toThrow(/ECONNREFUSED|ECONNRESET/);
  });

  it("a localhost grant reaches a server listening on ::1 only; the ::1 literal is not granted by it", async () => {
    const { http, port, hits } = await setUp(["localhost"], [], "::1");
    const answer = await exchange(http, `GET http://localhost:${port}/ HTTP/1.1\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*hi\n$/);
    expect(hits()).toBe(1);
    const literal = await exchange(http, `GET http://[::1]:${port}/ HTTP/1.1\r\n\r\n`);
    expect(literal).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(hits()).toBe(1);
  });

  it("takes only listeners marked for one of its ports", async () => {
    const { proxy } = await setUp(["ok.test"]);
    const stray = await handOver(proxy, 9999);
    await expect(exchange(stray, "GET / HTTP/1.1\r\n\r\n")).rejects.toThrow(
      /ECONNREFUSED|ECONNRESET/,
    );
  });
});

describe("internal addresses", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fe80::1",
    "fd00:ec2::254",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "224.0.0.1",
  ])("%s is internal", (address) => {
    expect(isInternalAddress(address)).toBe(true);
  });
  it.each(["93.184.215.14", "2606:4700::1111", "8.8.8.8"])("%s is public", (address) => {
    expect(isInternalAddress(address)).toBe(false);
  });
});
