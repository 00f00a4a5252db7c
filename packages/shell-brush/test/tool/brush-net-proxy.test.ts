import { createServer } from "node:http";
import { type AddressInfo, createServer as createTcpServer } from "node:net";
import {
  type Caveats,
  caveats,
  defaultPathPolicy,
  only,
  Registry,
  RunEnvelopeSchema,
} from "@agent-bridle/core";
import { createLandlockBackend } from "@agent-bridle/sandbox";
import { NOWHERE_HOME, useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { createBrushShellTool } from "../../src/tool/brush-shell-tool.js";

// A host allow-list under the bash engine (network.md, issue 16): a program the worker
// starts, and the interpreter's own /dev/tcp, reach a granted loopback address (named
// literally) through the call's egress proxy; another port is refused, and the refusal is a denial of the
// envelope, with the disclosure saying the network went through the proxy. Linux only.
const tempDir = useTempDirs("brush-net-", "each");
const backend = createLandlockBackend();

async function listening() {
  let hits = 0;
  const server = createServer((_req, res) => res.end("through the proxy\n"));
  server.on("connection", () => {
    hits += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, hits: () => hits };
}

/** A line server: answers each line `x` it is sent with `pong:x`, and ends on `bye`. */
async function lineListening() {
  let hits = 0;
  const server = createTcpServer((socket) => {
    hits += 1;
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk;
      for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n")) {
        const line = text.slice(0, at);
        text = text.slice(at + 1);
        if (line === "bye") socket.end("bye\n");
        else socket.write(`pong:${line}\n`);
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, hits: () => hits };
}

/** A raw TCP server: says `banner` on connect, records what it is sent. */
async function tcpListening() {
  let hits = 0;
  const received: Buffer[] = [];
  const server = createTcpServer((socket) => {
    hits += 1;
    socket.on("data", (chunk) => received.push(chunk));
    socket.on("error", () => {});
    socket.end("banner\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, port, hits: () => hits, received: () => Buffer.concat(received).toString() };
}

/** Every axis of a call's grant: the given net, fs_write /tmp, the rest unrestricted. */
const grantOf = (net: Caveats["net"]) =>
  caveats({ net, fs_read: "all", fs_write: only(["/tmp"]), exec: "all", max_calls: "unlimited" });

/** The bash engine (cold workers) in a registry; `run` sends one call under `net`. */
function bashEngine() {
  const registry = Registry.builder()
    .tool(createBrushShellTool({ home: "/nonexistent-home", tmpdir: "/tmp", backend, warm: false }))
    .pathPolicy(defaultPathPolicy({ platform: "linux", home: NOWHERE_HOME }))
    .build();
  return {
    run: async (cmd: string, net: Caveats["net"]) =>
      RunEnvelopeSchema.parse(
        await registry.dispatch("shell", { cmd, cwd: tempDir() }, registry.mintGrant(grantOf(net))),
      ),
    close: async () => registry.close?.(),
  };
}

/** The proxy's refusal of `target` is a denial of the envelope. */
function expectNotGranted(
  envelope: { readonly denials?: readonly unknown[] | undefined },
  target: string,
) {
  expect(envelope.denials).toContainEqual(
    expect.objectContaining({ code: "NET_HOST_NOT_GRANTED", target }),
  );
}

describe.skipIf(process.platform !== "linux")("the bash engine under a host allow-list", () => {
  it("/dev/tcp goes through the same decision: a granted address is written and read, another refused", async () => {
    const granted = await tcpListening();
    const other = await tcpListening();
    const engine = bashEngine();
    try {
      const cmd = [
        `echo hello > /dev/tcp/127.0.0.1/${granted.port}; echo wrote=$?`,
        `cat < /dev/tcp/127.0.0.1/${granted.port}`,
        `echo x > /dev/tcp/127.0.0.1/${other.port}; echo refused=$?`,
      ].join("\n");
      const envelope = await engine.run(cmd, only([`127.0.0.1:${granted.port}`]));
      expect(envelope.stdout).toBe("wrote=0\nbanner\nrefused=1\n");
      expect(envelope.stderr).toContain(`/dev/tcp/127.0.0.1/${other.port}: Permission denied`);
      expect(granted.hits()).toBe(2);
      // The bytes cross the proxy (in this process) after the call answers.
      for (let i = 0; i < 100 && granted.received() === ""; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(granted.received()).toBe("hello\n");
      expect(other.hits()).toBe(0);
      expectNotGranted(envelope, `127.0.0.1:${other.port}`);
    } finally {
      await engine.close();
      granted.server.close();
      other.server.close();
    }
  });

  it("exec N<>/dev/tcp is one connection both ways through the proxy; another address is refused", async () => {
    const granted = await lineListening();
    const other = await lineListening();
    const engine = bashEngine();
    try {
      const cmd = [
        `exec 3<>/dev/tcp/127.0.0.1/${granted.port}`,
        "echo ping >&3",
        "read -r one <&3",
        "printf 'again\\nbye\\n' >&3",
        "read -r two <&3",
        "cat <&3",
        'echo "one=$one two=$two"',
        "exec 3>&-",
        `exec 4<>/dev/tcp/127.0.0.1/${other.port}; echo refused=$?`,
      ].join("\n");
      const envelope = await engine.run(cmd, only([`127.0.0.1:${granted.port}`]));
      expect(envelope.stdout).toBe("bye\none=pong:ping two=pong:again\nrefused=1\n");
      expect(envelope.disclosure).toMatchObject({ net_via: "proxy" });
      expect(granted.hits()).toBe(1);
      expect(other.hits()).toBe(0);
      expectNotGranted(envelope, `127.0.0.1:${other.port}`);
    } finally {
      await engine.close();
      granted.server.close();
      other.server.close();
    }
  });

  it("/dev/tcp under net only[] connects nowhere (control: net all reaches the server)", async () => {
    const server = await tcpListening();
    const engine = bashEngine();
    try {
      const cmd = `cat < /dev/tcp/127.0.0.1/${server.port}; echo status=$?`;
      const none = await engine.run(cmd, only([]));
      expect(none.stdout).toBe("status=1\n");
      expect(server.hits()).toBe(0);
      const all = await engine.run(cmd, "all");
      expect(all.stdout).toBe("banner\nstatus=0\n");
      expect(server.hits()).toBe(1);
    } finally {
      await engine.close();
      server.server.close();
    }
  });

  it("a granted address works; another is refused with NET_HOST_NOT_GRANTED in the envelope", async () => {
    const granted = await listening();
    const other = await listening();
    const engine = bashEngine();
    try {
      const cmd = `curl -sS -f http://127.0.0.1:${granted.port}/; curl -sS -f http://127.0.0.1:${other.port}/; echo status=$?`;
      const envelope = await engine.run(cmd, only([`127.0.0.1:${granted.port}`]));
      expect(envelope).toMatchObject({ enforcement: { net: "kernel" }, sandbox_kind: "landlock" });
      expect(envelope.disclosure).toMatchObject({ net_via: "proxy", engine: "brush" });
      expect(envelope.stdout).toBe("through the proxy\nstatus=22\n");
      expect(granted.hits()).toBe(1);
      expect(other.hits()).toBe(0);
      expectNotGranted(envelope, `127.0.0.1:${other.port}`);
    } finally {
      await engine.close();
      granted.server.close();
      other.server.close();
    }
  });
});
