import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { only, RunEnvelopeSchema } from "@agent-bridle/core";
import { createLandlockBackend } from "@agent-bridle/sandbox";
import { describe, expect, it } from "vitest";
import { createHostShellTool } from "../src/host-shell-tool.js";
import { registryWith, useTempDirs } from "./helpers.js";

// A host allow-list under the host shell (network.md, issue 16): bash's programs reach a
// granted loopback address (named literally, so the egress proxy lets it be internal)
// through the bridge; another port is refused with a denial in the envelope; bash's own
// `/dev/tcp` connects directly, which the namespace and Landlock refuse. Linux only.
const tempDir = useTempDirs();
const backend = createLandlockBackend();
const probe = process.platform === "linux" ? await backend.probe() : undefined;

async function listening() {
  let hits = 0;
  const server = createServer((_req, res) => res.end("through the proxy\n"));
  server.on("connection", () => {
    hits += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, hits: () => hits };
}

describe.skipIf(process.platform !== "linux")("host shell under a host allow-list", () => {
  it("the launcher can enforce host allow-lists here", () => {
    expect(probe).toMatchObject({ available: true, netProxy: true });
  });

  it("a granted address works through the proxy; another is refused in the envelope; /dev/tcp reaches nothing", async () => {
    const granted = await listening();
    const other = await listening();
    try {
      const { dispatch } = registryWith(
        createHostShellTool({
          home: "/nonexistent-home",
          tmpdir: "/tmp",
          baseDir: tempDir(),
          backend,
        }),
      );
      const net = only([`127.0.0.1:${granted.port}`]);
      const ok = RunEnvelopeSchema.parse(
        await dispatch({ cmd: `curl -sS -f http://127.0.0.1:${granted.port}/` }, { net }),
      );
      expect(ok).toMatchObject({
        exit_code: 0,
        stdout: "through the proxy\n",
        enforcement: { net: "kernel" },
      });
      expect(ok.disclosure).toMatchObject({ net_via: "proxy" });
      expect(granted.hits()).toBe(1);

      const refused = RunEnvelopeSchema.parse(
        await dispatch({ cmd: `curl -sS -f http://127.0.0.1:${other.port}/` }, { net }),
      );
      expect(refused.exit_code).not.toBe(0);
      expect(refused.denials).toEqual([
        expect.objectContaining({
          code: "NET_HOST_NOT_GRANTED",
          target: `127.0.0.1:${other.port}`,
        }),
      ]);
      expect(other.hits()).toBe(0);

      const devTcp = RunEnvelopeSchema.parse(
        await dispatch(
          { cmd: `echo hi > /dev/tcp/127.0.0.1/${other.port} && echo connected` },
          { net },
        ),
      );
      expect(devTcp.stdout).not.toContain("connected");
      expect(other.hits()).toBe(0);
    } finally {
      granted.server.close();
      other.server.close();
    }
  });
});
