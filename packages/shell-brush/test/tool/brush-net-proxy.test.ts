import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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

describe.skipIf(process.platform !== "linux")("the bash engine under a host allow-list", () => {
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
