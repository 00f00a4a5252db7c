import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { only } from "@agent-bridle/core";
import { type LoopbackServers, startLoopbackServers } from "@agent-bridle-tools/test-kit";
import { expect } from "vitest";
import type { Attack, Outcome } from "../helpers/attack.js";
import type { EngineName } from "../helpers/engines.js";

// Host allow-lists (issue 16, network.md) on every engine: each row grants a host list,
// runs against loopback-only servers whose names the egress proxy's test resolver maps
// (bound to the engine's backend object, `bindNetTestHooks`), and holds a positive
// control; a refusal also asserts that the server saw nothing of it.

/** The row's servers (one row runs at a time in a file): started by its setup, closed by the next. */
let servers: LoopbackServers | undefined;
const live = (): LoopbackServers => {
  if (servers === undefined) throw new Error("the row's servers are not running");
  return servers;
};
const start = async (root: string) => {
  await stopNetworkServers();
  servers = await startLoopbackServers(root);
};
/** The last row's servers closed (its check runs after its teardown: the file's afterAll). */
export async function stopNetworkServers(): Promise<void> {
  await servers?.close();
  servers = undefined;
}

const HOSTS = { "allowed.test": "127.0.0.1", "denied.test": "127.0.0.1" };
/** The test servers' 127.0.0.1 counts as public: a granted name reaches them. */
const PUBLIC = { hosts: HOSTS, publicAddresses: ["127.0.0.1"] };
/** Nothing counts as public: a granted name resolving to 127.0.0.1 is internal. */
const INTERNAL = { hosts: HOSTS, publicAddresses: [] };

const curl = (url: string) => `curl -sS -f -m 10 ${url}`;
const httpUrl = (host: string) => `http://${host}:${live().http}/`;
const GRANT_ALLOWED = () => ({ net: only(["allowed.test"]) });

const response = (outcomes: readonly Outcome[], index: number) => outcomes[index]?.response ?? {};
type DenialLike = { code?: string; target?: string; reason?: string };
const denialsOf = (outcomes: readonly Outcome[], index: number) =>
  (response(outcomes, index).denials ?? []) as DenialLike[];

/** The call got through the proxy: exit 0, the expected output, `net` kernel via the proxy. */
function expectThrough(outcomes: readonly Outcome[], index: number, output: RegExp) {
  const got = response(outcomes, index);
  expect(got, JSON.stringify(got)).toMatchObject({
    exit_code: 0,
    enforcement: { net: "kernel" },
    disclosure: { net_via: "proxy" },
  });
  expect(got.stdout).toMatch(output);
}

/** The call was refused by the proxy: failed, with the denial naming host and port. */
function expectNotGranted(outcomes: readonly Outcome[], index: number, target: string) {
  const got = response(outcomes, index);
  expect(got.exit_code, JSON.stringify(got)).not.toBe(0);
  expect(denialsOf(outcomes, index)).toContainEqual(
    expect.objectContaining({ code: "NET_HOST_NOT_GRANTED", target }),
  );
}

const DIRECT = `
import socket, sys
for host in ("127.0.0.1", "::1"):
    try:
        socket.create_connection((host, int(sys.argv[1])), timeout=3)
        print("connected", host)
    except OSError as e:
        print("refused", host)
`;

const DATAGRAMS = `
import socket, struct, sys
query = struct.pack(">HHHHHH", 0x6272, 0x0100, 1, 0, 0, 0) + b"\\x07allowed\\x04test\\x00\\x00\\x01\\x00\\x01"
for (host, port) in (("127.0.0.1", int(sys.argv[1])), ("127.0.0.53", 53), ("8.8.8.8", 53), ("::1", int(sys.argv[1]))):
    try:
        s = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(1)
        s.sendto(query, (host, port))
        print("sent", host, port)
        print("answer", host, s.recv(512))
    except OSError as e:
        print("no route", host, port)
try:
    print("resolved", socket.getaddrinfo("allowed.test", 80))
except OSError:
    print("dns failed")
`;

const URLLIB = `
import sys, urllib.request
print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode().strip())
`;

const writeScripts = (a: string) => {
  writeFileSync(join(a, "direct.py"), DIRECT);
  writeFileSync(join(a, "datagrams.py"), DATAGRAMS);
  writeFileSync(join(a, "fetch.py"), URLLIB);
};

/** `/dev/tcp` through the proxy is the bash engine's own; another engine's control is curl. */
const devTcpControl = (engine: EngineName) =>
  engine === "bash"
    ? `printf 'GET / HTTP/1.0\\r\\nHost: allowed.test\\r\\n\\r\\n' > /dev/tcp/allowed.test/${live().http} && echo sent`
    : `${curl(httpUrl("allowed.test"))} > /dev/null && echo sent`;

export const NETWORK_ATTACKS: readonly Attack[] = [
  {
    id: "N1",
    title: "an ungranted name is refused (a granted one works)",
    exec: ["curl"],
    netTestHooks: PUBLIC,
    setup: (f) => start(f.A),
    grant: GRANT_ALLOWED,
    steps: () => [{ cmd: curl(httpUrl("allowed.test")) }, { cmd: curl(httpUrl("denied.test")) }],
    check: (outcomes) => {
      expectThrough(outcomes, 0, /^hello from allowed\.test:/);
      expectNotGranted(outcomes, 1, `denied.test:${live().http}`);
      expect(denialsOf(outcomes, 1)[0]?.reason).toMatch(/net\.only/);
      expect(live().hits.http).toBe(1);
    },
  },
  {
    id: "N2",
    title: "a granted name resolving to a loopback address is refused (a literal grant reaches it)",
    exec: ["curl"],
    netTestHooks: INTERNAL,
    setup: (f) => start(f.A),
    grant: () => ({ net: only(["allowed.test", `127.0.0.1:${live().http}`]) }),
    steps: () => [{ cmd: curl(httpUrl("127.0.0.1")) }, { cmd: curl(httpUrl("allowed.test")) }],
    check: (outcomes) => {
      expectThrough(outcomes, 0, /^hello from 127\.0\.0\.1:/);
      expectNotGranted(outcomes, 1, `allowed.test:${live().http}`);
      expect(denialsOf(outcomes, 1)[0]?.reason).toMatch(/loopback, private or metadata/);
      expect(live().hits.http).toBe(1);
    },
  },
  {
    id: "N3",
    title: "an IP literal not granted is refused (the granted name works)",
    exec: ["curl"],
    netTestHooks: PUBLIC,
    setup: (f) => start(f.A),
    grant: GRANT_ALLOWED,
    steps: () => [{ cmd: curl(httpUrl("allowed.test")) }, { cmd: curl(httpUrl("127.0.0.1")) }],
    check: (outcomes) => {
      expectThrough(outcomes, 0, /^hello from allowed\.test:/);
      expectNotGranted(outcomes, 1, `127.0.0.1:${live().http}`);
      expect(live().hits.http).toBe(1);
    },
  },
  {
    id: "N4",
    title: "a direct connect() that ignores the proxy variables reaches nothing",
    exec: ["curl", "python3", "env"],
    netTestHooks: PUBLIC,
    setup: async (f) => {
      writeScripts(f.A);
      await start(f.A);
    },
    grant: GRANT_ALLOWED,
    steps: () => [
      { cmd: `curl -sS -m 5 --noproxy 127.0.0.1 http://127.0.0.1:${live().tcp}/` },
      { cmd: `env -u HTTP_PROXY -u http_proxy -u ALL_PROXY python3 direct.py ${live().tcp}` },
      { cmd: `python3 fetch.py ${httpUrl("allowed.test")}` },
    ],
    check: (outcomes) => {
      expect(response(outcomes, 0).exit_code).not.toBe(0);
      expect(response(outcomes, 1).stdout).toMatch(/^refused 127\.0\.0\.1\nrefused ::1\n$/);
      expectThrough(outcomes, 2, /^hello from allowed\.test:/);
      expect(live().hits).toMatchObject({ tcp: 0, http: 1 });
    },
  },
  {
    id: "N5",
    title: "UDP and raw DNS reach nothing (the proxy resolves names)",
    exec: ["python3"],
    netTestHooks: PUBLIC,
    setup: async (f) => {
      writeScripts(f.A);
      await start(f.A);
    },
    grant: GRANT_ALLOWED,
    steps: () => [
      { cmd: `python3 datagrams.py ${live().udp}` },
      { cmd: `python3 fetch.py ${httpUrl("allowed.test")}` },
    ],
    check: (outcomes) => {
      const seen = String(response(outcomes, 0).stdout);
      expect(seen).not.toMatch(/answer|resolved/);
      expect(seen).toMatch(/dns failed\n$/);
      expectThrough(outcomes, 1, /^hello from allowed\.test:/);
      expect(live().hits).toMatchObject({ udp: 0, http: 1 });
    },
  },
  {
    id: "N6",
    title: "/dev/tcp to an ungranted host or address reaches nothing (a granted one works)",
    exec: ["curl"],
    netTestHooks: PUBLIC,
    setup: (f) => start(f.A),
    grant: GRANT_ALLOWED,
    steps: (_f, engine) => [
      { cmd: `echo x > /dev/tcp/denied.test/${live().tcp} && echo connected` },
      { cmd: `echo x > /dev/tcp/127.0.0.1/${live().tcp} && echo connected` },
      { cmd: devTcpControl(engine) },
    ],
    check: (outcomes, _f, engine) => {
      for (const index of [0, 1]) {
        expect(String(response(outcomes, index).stdout ?? "")).not.toContain("connected");
      }
      if (engine === "bash") {
        // The bash engine's /dev/tcp asks the proxy like any program: its refusals are denials.
        expectNotGranted(outcomes, 0, `denied.test:${live().tcp}`);
        expectNotGranted(outcomes, 1, `127.0.0.1:${live().tcp}`);
      }
      expect(response(outcomes, 2).stdout).toBe("sent\n");
      expect(live().hits).toMatchObject({ tcp: 0, http: 1 });
    },
  },
];
