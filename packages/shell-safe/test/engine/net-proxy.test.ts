import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { only, RunEnvelopeSchema } from "@agent-bridle/core";
import { createLandlockBackend } from "@agent-bridle/sandbox";
import { describe, expect, it } from "vitest";
import { createShellTool } from "../../src/index.js";
import { HOME, registryWith, useTempDirs } from "./helpers.js";

// A host allow-list under the safe-subset engine (network.md, issue 16): a granted
// address (named literally) is reached through the call's egress proxy; another port is
// refused and listed as a denial, with `net_via: "proxy"` disclosed. Linux only.
const tempDir = useTempDirs();
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

describe.skipIf(process.platform !== "linux")("the safe engine under a host allow-list", () => {
  it("a granted address works; another is refused with NET_HOST_NOT_GRANTED in the envelope", async () => {
    const granted = await listening();
    const other = await listening();
    const { dispatch } = registryWith(
      createShellTool({ home: HOME, tmpdir: "/tmp", baseDir: tempDir(), backend }),
    );
    try {
      const net = only([`127.0.0.1:${granted.port}`]);
      const exec = only(["curl"]);
      const ok = RunEnvelopeSchema.parse(
        await dispatch({ cmd: `curl -sS -f http://127.0.0.1:${granted.port}/` }, { net, exec }),
      );
      expect(ok).toMatchObject({
        exit_code: 0,
        stdout: "through the proxy\n",
        enforcement: { net: "kernel" },
      });
      expect(ok.disclosure).toMatchObject({ net_via: "proxy" });
      expect(granted.hits()).toBe(1);
      const refused = RunEnvelopeSchema.parse(
        await dispatch({ cmd: `curl -sS -f http://127.0.0.1:${other.port}/` }, { net, exec }),
      );
      expect(refused.exit_code).not.toBe(0);
      expect(refused.denials).toContainEqual(
        expect.objectContaining({
          code: "NET_HOST_NOT_GRANTED",
          target: `127.0.0.1:${other.port}`,
        }),
      );
      expect(other.hits()).toBe(0);
    } finally {
      granted.server.close();
      other.server.close();
    }
  });
});
