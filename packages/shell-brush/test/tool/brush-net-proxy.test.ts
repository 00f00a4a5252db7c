import { createServer } from "node:http";
import { type AddressInfo, createServer as createTcpServer } from "node:net";
import { caveats, defaultPathPolicy, only, Registry, RunEnvelopeSchema } from "@agent-bridle/core";
import { createLandlockBackend } from "@agent-bridle/sandbox";
import { NOWHERE_HOME, useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { createBrushShellTool } from "../../src/tool/brush-shell-tool.js";

// A host allow-list under the bash engine (network.md, issue 16): a program the worker
// starts reaches a granted loopback address (named literally) through the bridge and the
// call's egress proxy; another port is refused, and the refusal is a denial of the
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

describe.skipIf(process.platform !== "linux")("the bash engine under a host allow-list", () => {
  it("/dev/tcp goes through the same decision: a granted address is written and read, another refused", async () => {
    const granted = await tcpListening();
    const other = await tcpListening();
    const tool = createBrushShellTool({
      home: "/nonexistent-home",
      tmpdir: "/tmp",
      backend,
      warm: false,
    });
    const registry = Registry.builder()
      .tool(tool)
      .pathPolicy(defaultPathPolicy({ platform: "linux", home: NOWHERE_HOME }))
      .build();
    try {
      const grant = registry.mintGrant(caveats({ net: only([`127.0.0.1:${granted.port}`]) }));
      const cmd = [
        `echo hello > /dev/tcp/127.0.0.1/${granted.port}; echo wrote=$?`,
        `cat < /dev/tcp/127.0.0.1/${granted.port}`,
        `echo x > /dev/tcp/127.0.0.1/${other.port}; echo refused=$?`,
      ].join("\n");
      const envelope = RunEnvelopeSchema.parse(
        await registry.dispatch("shell", { cmd, cwd: tempDir() }, grant),
      );
      expect(envelope.stdout).toBe("wrote=0\nbanner\nrefused=1\n");
      expect(envelope.stderr).toContain(`/dev/tcp/127.0.0.1/${other.port}: Permission denied`);
      expect(granted.hits()).toBe(2);
      // The bytes cross the bridge and the proxy (in this process) after the call answers.
      for (let i = 0; i < 100 && granted.received() === ""; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(granted.received()).toBe("hello\n");
      expect(other.hits()).toBe(0);
      expect(envelope.denials).toContainEqual(
        expect.objectContaining({
          code: "NET_HOST_NOT_GRANTED",
          target: `127.0.0.1:${other.port}`,
        }),
      );
    } finally {
      await registry.close?.();
      granted.server.close();
      other.server.close();
    }
  });

  it("/dev/tcp under net only[] connects nowhere (control: net all reaches the server)", async () => {
    const server = await tcpListening();
    const tool = createBrushShellTool({
      home: "/nonexistent-home",
      tmpdir: "/tmp",
      backend,
      warm: false,
    });
    const registry = Registry.builder()
      .tool(tool)
      .pathPolicy(defaultPathPolicy({ platform: "linux", home: NOWHERE_HOME }))
      .build();
    try {
      const cmd = `cat < /dev/tcp/127.0.0.1/${server.port}; echo status=$?`;
      const none = RunEnvelopeSchema.parse(
        await registry.dispatch(
          "shell",
          { cmd, cwd: tempDir() },
          registry.mintGrant(caveats({ net: only([]), fs_write: only(["/tmp"]) })),
        ),
      );
      expect(none.stdout).toBe("status=1\n");
      expect(server.hits()).toBe(0);
      const all = RunEnvelopeSchema.parse(
        await registry.dispatch(
          "shell",
          { cmd, cwd: tempDir() },
          registry.mintGrant(caveats({ fs_write: only(["/tmp"]) })),
        ),
      );
      expect(all.stdout).toBe("banner\nstatus=0\n");
      expect(server.hits()).toBe(1);
    } finally {
      await registry.close?.();
      server.server.close();
    }
  });

  it("a granted address works; another is refused with NET_HOST_NOT_GRANTED in the envelope", async () => {
    const granted = await listening();
    const other = await listening();
    const tool = createBrushShellTool({
      home: "/nonexistent-home",
      tmpdir: "/tmp",
      backend,
      warm: false,
    });
    const registry = Registry.builder()
      .tool(tool)
      .pathPolicy(defaultPathPolicy({ platform: "linux", home: NOWHERE_HOME }))
      .build();
    try {
      const grant = registry.mintGrant(caveats({ net: only([`127.0.0.1:${granted.port}`]) }));
      const cmd = `curl -sS -f http://127.0.0.1:${granted.port}/; curl -sS -f http://127.0.0.1:${other.port}/; echo status=$?`;
      const envelope = RunEnvelopeSchema.parse(
        await registry.dispatch("shell", { cmd, cwd: tempDir() }, grant),
      );
      expect(envelope).toMatchObject({ enforcement: { net: "kernel" }, sandbox_kind: "landlock" });
      expect(envelope.disclosure).toMatchObject({ net_via: "proxy", engine: "brush" });
      expect(envelope.stdout).toBe("through the proxy\nstatus=22\n");
      expect(granted.hits()).toBe(1);
      expect(other.hits()).toBe(0);
      expect(envelope.denials).toContainEqual(
        expect.objectContaining({
          code: "NET_HOST_NOT_GRANTED",
          target: `127.0.0.1:${other.port}`,
        }),
      );
    } finally {
      await registry.close?.();
      granted.server.close();
      other.server.close();
    }
  });
});
