// The egress suite's scenarios (network.md; issue 16's "Done when"): each runs real
// programs through the funnel with the real launcher under a host allow-list, against
// the loopback servers, and reports what the programs saw and what the servers saw.
// They run in a child process (egress-child.ts) as root and as nobody; the test judges.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AuditEvent,
  caveats,
  defaultPathPolicy,
  Gate,
  NO_COVERAGE,
  only,
  top,
} from "@agent-bridle/core";
import { type LoopbackServers, startLoopbackServers } from "@agent-bridle-tools/test-kit";
import { createLandlockBackend } from "../../src/backend/landlock-backend.js";
import { createSandbox } from "../../src/funnel/sandbox.js";

export interface RunReport {
  readonly kind: string;
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly net?: string | undefined;
  readonly netVia?: string | undefined;
  readonly denials: readonly { code: string; target: string; reason: string }[];
  readonly netEvents: readonly AuditEvent[];
  /** Server hits during this run. */
  readonly hits: LoopbackServers["hits"];
}

export interface Scope {
  readonly servers: LoopbackServers;
  readonly base: string;
  run(grant: readonly string[], argv: readonly string[], options?: RunOptions): Promise<RunReport>;
}

export interface RunOptions {
  readonly hooks?: { readonly hosts?: Record<string, string>; readonly publicAddresses?: string[] };
  readonly env?: Record<string, string>;
  readonly maxNetConnections?: number;
}

const backend = createLandlockBackend();

/** Names the test resolver maps to the servers (127.0.0.1, treated as public). */
export const TEST_HOSTS = {
  "allowed.test": "127.0.0.1",
  "other.allowed.test": "127.0.0.1",
  "denied.test": "127.0.0.1",
};

export async function withScope<T>(fn: (scope: Scope) => Promise<T>): Promise<T> {
  const base = mkdtempSync(join(tmpdir(), "bridle-egress-"));
  chmodSync(base, 0o755);
  const servers = await startLoopbackServers(base);
  const scope: Scope = {
    servers,
    base,
    async run(grant: readonly string[], argv: readonly string[], options: RunOptions = {}) {
      const events: AuditEvent[] = [];
      const gate = new Gate({
        pathPolicy: defaultPathPolicy({ platform: "linux", home: "/nonexistent-home" }),
        audit: { record: (event) => events.push(event) },
      });
      const cx = gate.authorize(
        { name: "egress-test", required: top() },
        caveats({ fs_read: "all", fs_write: only([base]), exec: "all", net: only([...grant]) }),
      );
      const sandbox = createSandbox({
        home: "/nonexistent-home",
        tmpdir: base,
        backend,
        maxNetConnections: options.maxNetConnections,
        netTestHooks: {
          hosts: options.hooks?.hosts ?? TEST_HOSTS,
          publicAddresses: options.hooks?.publicAddresses ?? ["127.0.0.1"],
        },
      });
      const before = { ...servers.hits };
      const outcome = await sandbox.run(
        cx,
        {
          stages: [[...argv]],
          cwd: base,
          timeoutMs: 20_000,
          maxOutputBytes: 1 << 21,
          env: options.env,
        },
        { coverage: NO_COVERAGE },
      );
      // Let a connection the program made reach its server before counting.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const hits = {
        http: servers.hits.http - before.http,
        https: servers.hits.https - before.https,
        tcp: servers.hits.tcp - before.tcp,
        udp: servers.hits.udp - before.udp,
      };
      const ran = outcome.kind === "ran" ? outcome : undefined;
      return {
        kind: outcome.kind,
        exitCode: ran?.result.exitCode ?? null,
        stdout: ran?.result.stdout.toString().slice(0, 4000) ?? "",
        stderr:
          ran?.result.stderr.toString().slice(0, 4000) ??
          (outcome.kind === "refused" ? outcome.denial.reason : ""),
        net: outcome.report.net,
        netVia: ran?.netVia,
        denials: (ran?.lateDenials ?? []).map(({ code, target, reason }) => ({
          code,
          target,
          reason,
        })),
        netEvents: events.filter((event) => event.type === "net"),
        hits,
      };
    },
  };
  try {
    return await fn(scope);
  } finally {
    await servers.close();
    rmSync(base, { recursive: true, force: true });
  }
}
