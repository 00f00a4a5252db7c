import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Caveats,
  caveats,
  defaultPathPolicy,
  Gate,
  NO_COVERAGE,
  only,
  top,
} from "@agent-bridle/core";
import { createLandlockBackend, createSandbox, type Sandbox } from "@agent-bridle/sandbox";
import type { RatioBenchmark } from "../benchmark.js";

// Host allow-lists (network.md, issue 16): what the egress proxy costs. Both sides run
// through the funnel with the launcher; a loopback server serves 1 MiB, and the bench's
// own resolver maps `bench.test` to it (the sandbox's test hook: nothing leaves the host).

const MIB = Buffer.alloc(1 << 20, 0x62);
const DOWNLOADS = 8;

interface Fixture {
  readonly directory: string;
  readonly server: Server;
  readonly port: number;
  readonly sandbox: Sandbox;
  run(grant: Partial<Caveats>, argv: string[], expectNet: string | undefined): Promise<void>;
}

let fixture: Fixture | undefined;

async function setUp(name: string): Promise<void> {
  const backend = createLandlockBackend();
  const probe = await backend.probe();
  if (!probe.available || probe.netProxy !== true) {
    throw new Error(`${name}: host allow-lists cannot be enforced on this host`);
  }
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-length": String(MIB.length) });
    res.end(MIB);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const directory = mkdtempSync(join(tmpdir(), "bench-net-"));
  const sandbox = createSandbox({
    backend,
    home: directory,
    tmpdir: directory,
    netTestHooks: { hosts: { "bench.test": "127.0.0.1" }, publicAddresses: ["127.0.0.1"] },
  });
  const gate = new Gate({ pathPolicy: defaultPathPolicy({ platform: "linux", home: homedir() }) });
  fixture = {
    directory,
    server,
    port,
    sandbox,
    async run(grant, argv, expectNet) {
      const cx = gate.authorize(
        { name: "bench", required: top() },
        caveats({ fs_read: "all", fs_write: only([directory]), exec: "all", net: "all", ...grant }),
      );
      const outcome = await sandbox.run(
        cx,
        { stages: [argv], cwd: directory, timeoutMs: 30_000, maxOutputBytes: 1 << 16 },
        { coverage: NO_COVERAGE },
      );
      if (outcome.kind !== "ran" || outcome.result.exitCode !== 0) {
        const why = outcome.kind === "ran" ? outcome.result.stderr.toString() : outcome.kind;
        throw new Error(`${name}: the call failed: ${why}`);
      }
      if (outcome.report.net !== expectNet)
        throw new Error(`${name}: net was ${outcome.report.net}`);
    },
  };
}

function tearDown(): void {
  if (!fixture) return;
  fixture.server.close();
  rmSync(fixture.directory, { recursive: true, force: true });
  fixture = undefined;
}

// One curl per download (a connection each on both sides: the proxy forwards plain HTTP
// one request per connection, where a single curl would reuse its direct connection).
const curl = (url: string) => [
  "/bin/sh",
  "-c",
  `for i in ${Array.from({ length: DOWNLOADS }, (_, i) => i).join(" ")}; do /usr/bin/curl -sS -f -o /dev/null ${url} || exit 1; done`,
];

export const netProxyDownload: RatioBenchmark = {
  kind: "ratio",
  name: "net-proxy-download",
  description: `${DOWNLOADS} curl runs each download 1 MiB from a loopback server through the egress proxy vs directly`,
  grant: "net only[bench.test] vs net all, both fs_write only[<temp dir>]",
  mode: "sandbox funnel, bridle-launch; egress proxy vs the host's network",
  target: { maxRatio: 1.5 },
  samples: 10,
  setup: () => setUp("net-proxy-download"),
  teardown: tearDown,
  subject: async () => {
    const f = fixture as Fixture;
    await f.run({ net: only(["bench.test"]) }, curl(`http://bench.test:${f.port}/`), "kernel");
  },
  baseline: async () => {
    const f = fixture as Fixture;
    await f.run({ net: "all" }, curl(`http://127.0.0.1:${f.port}/`), undefined);
  },
};

export const netProxyCall: RatioBenchmark = {
  kind: "ratio",
  name: "net-proxy-call",
  description:
    "/bin/true under a host allow-list (namespace, listeners handed to the egress proxy) vs under net only[]",
  grant: "net only[bench.test] vs net only[], both fs_write only[<temp dir>]",
  mode: "sandbox funnel, bridle-launch, one stage",
  target: { maxRatio: 1.3 },
  samples: 20,
  setup: () => setUp("net-proxy-call"),
  teardown: tearDown,
  subject: async () => {
    await (fixture as Fixture).run({ net: only(["bench.test"]) }, ["/bin/true"], "kernel");
  },
  baseline: async () => {
    await (fixture as Fixture).run({ net: only([]) }, ["/bin/true"], "kernel");
  },
};
