// Host allow-lists enforced (network.md; issue 16): real programs in the real launcher's
// network namespace reach granted names only through the bridge and the egress proxy,
// against loopback-only servers whose names a test-only resolver maps. Every case runs
// in a child process as root and, when the suite runs as root, as nobody (setpriv): the
// child reports what the programs and the servers saw; this file judges. Each refusal
// asserts that the server saw nothing, and has its positive control.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tsLoaderPath } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { createLandlockBackend } from "../../src/backend/landlock-backend.js";
import { CASES, type CaseReport } from "./egress-cases.js";
import type { RunReport } from "./egress-scenarios.js";

const isRoot = process.getuid?.() === 0;
const here = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));
const probe = process.platform === "linux" ? await createLandlockBackend().probe() : undefined;

interface Mode {
  readonly name: string;
  readonly wrap: readonly string[];
}
const modes: readonly Mode[] = [
  { name: isRoot ? "root" : "user", wrap: [] },
  ...(isRoot && existsSync("/usr/bin/setpriv")
    ? [
        {
          name: "nobody",
          wrap: [
            "/usr/bin/setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--inh-caps=-all",
          ],
        },
      ]
    : []),
];

function runCases(mode: Mode): Promise<Map<string, CaseReport | string>> {
  const argv = [
    ...mode.wrap,
    process.execPath,
    "--conditions=@agent-bridle/source",
    "--import",
    tsLoaderPath(),
    here("egress-child.ts"),
    ...Object.keys(CASES),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/nonexistent-home", TMPDIR: "/tmp" },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.once("error", reject);
    child.once("exit", (code) => {
      const reports = new Map<string, CaseReport | string>();
      for (const line of out.split("\n").filter(Boolean)) {
        const parsed = JSON.parse(line) as { name: string; report?: CaseReport; error?: string };
        reports.set(parsed.name, parsed.report ?? `error: ${parsed.error}`);
      }
      if (reports.size === 0)
        reject(new Error(`the ${mode.name} child reported nothing (${code}): ${err}`));
      else resolve(reports);
    });
  });
}

function runOf(report: CaseReport | string | undefined, key: string): RunReport {
  if (typeof report !== "object") throw new Error(`the case did not run: ${report}`);
  const run = report[key];
  if (typeof run !== "object") throw new Error(`no run ${key}`);
  return run;
}

/** A run that got through: output, the server hit, the decision audited with bytes. */
function expectThrough(run: RunReport, output: RegExp, server: keyof RunReport["hits"]) {
  expect(run, run.stderr).toMatchObject({
    kind: "ran",
    exitCode: 0,
    net: "kernel",
    netVia: "proxy",
  });
  expect(run.stdout).toMatch(output);
  expect(run.hits[server]).toBeGreaterThan(0);
  expect(run.denials).toEqual([]);
  const allowed = run.netEvents.find(
    (event) => event.type === "net" && event.decision === "allowed",
  );
  expect(allowed).toMatchObject({ type: "net", decision: "allowed" });
  expect(allowed?.type === "net" && allowed.bytes_in).toBeGreaterThan(0);
}

/** A refused run: nothing reached any server; the denial names host and port. */
function expectRefused(run: RunReport, target?: string) {
  expect(run).toMatchObject({ kind: "ran", net: "kernel" });
  expect(run.hits).toEqual({ http: 0, https: 0, tcp: 0, udp: 0 });
  if (target === undefined) return;
  expect(run.denials).toEqual([expect.objectContaining({ code: "NET_HOST_NOT_GRANTED", target })]);
  expect(run.denials[0]?.reason).toMatch(/net\.only/);
  expect(run.netEvents).toContainEqual(
    expect.objectContaining({
      type: "net",
      decision: "denied",
      code: "NET_HOST_NOT_GRANTED",
      bytes_in: 0,
    }),
  );
}

const port = (run: RunReport) => /:(\d+)/.exec(run.stdout)?.[1];

describe.skipIf(process.platform !== "linux")("host allow-lists through the egress proxy", () => {
  it("the launcher can set up a host allow-list's network here", () => {
    expect(probe).toMatchObject({ available: true, netProxy: true });
  });

  describe.each(modes)("as $name", (mode) => {
    let reports: Promise<Map<string, CaseReport | string>> | undefined;
    const reportOf = async (name: string) => {
      reports ??= runCases(mode);
      return (await reports).get(name);
    };

    it("curl over HTTP: a granted name works, an ungranted one is refused", {
      timeout: 120_000,
    }, async () => {
      const report = await reportOf(
        "curl over HTTP: a granted name works, an ungranted one is refused",
      );
      const granted = runOf(report, "granted");
      expectThrough(granted, /^hello from allowed\.test:/, "http");
      const refused = runOf(report, "refused");
      expect(refused.exitCode).not.toBe(0);
      expectRefused(refused, `denied.test:${port(granted)}`);
    });

    it("HTTPS through CONNECT and SOCKS5 work for a granted name; SOCKS5 refuses another", {
      timeout: 120_000,
    }, async () => {
      const report = await reportOf("curl over HTTPS through CONNECT, and through SOCKS5");
      expectThrough(runOf(report, "connect"), /^hello from allowed\.test/, "https");
      expectThrough(runOf(report, "socks"), /^hello from allowed\.test/, "https");
      const refused = runOf(report, "socksRefused");
      expect(refused.exitCode).not.toBe(0);
      expectRefused(refused, expect.stringMatching(/^denied\.test:\d+$/) as unknown as string);
    });

    it("wildcards match subdomains, not the apex; a port in the entry binds", {
      timeout: 120_000,
    }, async () => {
      const report = await reportOf("wildcards match subdomains, not the apex; a port binds");
      expectThrough(runOf(report, "subdomain"), /^hello from other\.allowed\.test/, "http");
      expectRefused(
        runOf(report, "apex"),
        expect.stringMatching(/^allowed\.test:/) as unknown as string,
      );
      expectRefused(
        runOf(report, "port"),
        expect.stringMatching(/^allowed\.test:/) as unknown as string,
      );
    });

    it("a granted name resolving to loopback, and an ungranted IP literal, are refused; a literal grant reaches it", {
      timeout: 120_000,
    }, async () => {
      const report = await reportOf(
        "a granted name resolving to a loopback address is refused; a literal grant reaches it",
      );
      const literal = runOf(report, "literalGranted");
      expectThrough(literal, /^hello from 127\.0\.0\.1:/, "http");
      const internal = runOf(report, "internal");
      expectRefused(internal, `allowed.test:${port(literal)}`);
      expect(internal.denials[0]?.reason).toMatch(/loopback, private or metadata/);
      expectRefused(runOf(report, "literalNotGranted"), `127.0.0.1:${port(literal)}`);
    });

    it("a direct connect() with the proxy variables removed reaches nothing", {
      timeout: 120_000,
    }, async () => {
      const report = await reportOf(
        "a direct connect() without the proxy variables reaches nothing",
      );
      const direct = runOf(report, "direct");
      expect(direct.stdout).toMatch(/^refused 127\.0\.0\.1 \d+\nrefused ::1 \d+\n$/);
      expectRefused(direct);
      expectThrough(runOf(report, "control"), /^hello from allowed\.test/, "http");
    });

    it("nothing outside the call reaches the proxy: no socket leads to it, the call's own traffic flows", {
      timeout: 120_000,
    }, async () => {
      const report = await reportOf("nothing outside the call can reach the proxy");
      const call = runOf(report, "call");
      // Positive control: the call's own two fetches, before and after the intruders.
      expectThrough(call, /^hello from allowed\.test:\d+\nhello from allowed\.test:\d+\n$/, "http");
      expect(call.hits.http).toBe(2);
      const seenBy = typeof report === "object" ? report : {};
      const intruders = [
        seenBy.sameUser,
        ...(isRoot && mode.name === "root" ? [seenBy.nobody] : []),
      ];
      for (const seen of intruders) {
        expect(seen).toMatch(/^named 0\n/);
        expect(seen).not.toMatch(/reached|answered \d+ b'HTTP\/1\.1 200/);
      }
    });

    it("UDP and DNS reach nothing (the proxy resolves)", { timeout: 120_000 }, async () => {
      const report = await reportOf("UDP and DNS reach nothing");
      const udp = runOf(report, "udp");
      expect(udp.stdout).toMatch(/dns failed/);
      expectRefused(udp);
    });

    it("no connection is made after the call ended", { timeout: 120_000 }, async () => {
      const report = await reportOf("nothing connects after the call ended");
      expect(runOf(report, "report").stdout).toBe("started\n");
      expect(typeof report === "object" && report.lateHits).toBe("0");
      expectThrough(runOf(report, "during"), /^hello from allowed\.test/, "http");
    });

    it("node and git use the proxy; git to an ungranted host is refused", {
      timeout: 120_000,
    }, async () => {
      const report = await reportOf("node and Python urllib use the proxy; git clones over HTTP");
      expectThrough(runOf(report, "node"), /hello from allowed\.test/, "https");
      expectThrough(runOf(report, "git"), /^cloned through the proxy\n$/, "http");
      const refused = runOf(report, "gitRefused");
      expect(refused.exitCode).not.toBe(0);
      expectRefused(refused, expect.stringMatching(/^denied\.test:\d+$/) as unknown as string);
    });

    it("npm installs and pip downloads from loopback indexes; an ungranted index is refused", {
      timeout: 120_000,
    }, async () => {
      const report = await reportOf("npm installs and pip downloads from loopback indexes by name");
      expectThrough(runOf(report, "npm"), /installed through the proxy\n$/, "http");
      expectThrough(runOf(report, "pip"), /^bridle_demo-1\.0-py3-none-any\.whl\n$/, "http");
      for (const key of ["npmRefused", "pipRefused"]) {
        const refused = runOf(report, key);
        expect(refused.exitCode).not.toBe(0);
        expectRefused(refused, expect.stringMatching(/^denied\.test:\d+$/) as unknown as string);
      }
    });

    it("the proxy caps concurrent connections of a call", { timeout: 120_000 }, async () => {
      const report = await reportOf("the proxy caps concurrent connections per call");
      const capped = runOf(report, "capped");
      expect(capped.stdout).toContain(
        "['HTTP/1.1 200 Connection Established', 'HTTP/1.1 200 Connection Established', 'HTTP/1.1 503 Service Unavailable']",
      );
      expect(capped.hits.https).toBe(2);
      expect(capped.denials).toEqual([
        expect.objectContaining({ code: "LIMIT_EXCEEDED", target: "connections" }),
      ]);
    });
  });
});
