// Kernel boundary, class 4 and the network (kernel-boundary.md §1.3): a host service is
// unreachable by any channel the net axis does not grant — UNIX sockets by path (inside
// or outside the view) or by abstract name, IP sockets to host loopback listeners,
// netlink, packet, vsock — and the listener sees nothing. `net all` is the control.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { beforeAll, describe, expect, it } from "vitest";
import {
  attack,
  canary,
  expectContained,
  expectRan,
  type Fixture,
  fixture,
  funnelPolicy,
  hostState,
  modes,
  onCleanup,
  outcomes,
  PYTHON,
  setUpLauncher,
  snapshot,
  value,
} from "./kit.js";

const EACCES = 13;
const EAFNOSUPPORT = 97;

// A host service: UNIX stream and datagram sockets at the paths and abstract names it is
// given, TCP on 127.0.0.1 and ::1, UDP on 127.0.0.1. It answers every connection and
// datagram with the reply, and reports each as one JSON line on stdout.
const LISTENER = `
import json, os, select, socket, sys
reply = sys.argv[1].encode()
unix = json.loads(sys.argv[2])
socks = {}
for name, addr in unix.items():
    kind = socket.SOCK_DGRAM if name.endswith("dgram") else socket.SOCK_STREAM
    s = socket.socket(socket.AF_UNIX, kind)
    s.bind("\\0" + addr[1:] if addr.startswith("@") else addr)
    if not addr.startswith("@"):
        os.chmod(addr, 0o777)
    if kind == socket.SOCK_STREAM:
        s.listen(8)
    socks[s] = (name, kind)
ports = {}
for name, family, host, kind in (("tcp4", socket.AF_INET, "127.0.0.1", socket.SOCK_STREAM),
                                 ("tcp6", socket.AF_INET6, "::1", socket.SOCK_STREAM),
                                 ("udp4", socket.AF_INET, "127.0.0.1", socket.SOCK_DGRAM)):
    try:
        s = socket.socket(family, kind)
        s.bind((host, 0))
    except OSError:
        continue
    if kind == socket.SOCK_STREAM:
        s.listen(8)
    socks[s] = (name, kind)
    ports[name] = s.getsockname()[1]
print(json.dumps({"ready": ports}), flush=True)
while True:
    ready, _, _ = select.select(list(socks) + [sys.stdin], [], [])
    if sys.stdin in ready:
        break
    for s in ready:
        name, kind = socks[s]
        if kind == socket.SOCK_STREAM:
            conn, _ = s.accept()
            conn.sendall(reply)
            conn.close()
            print(json.dumps({"event": "connect", "on": name}), flush=True)
        else:
            data, peer = s.recvfrom(4096)
            print(json.dumps({"event": "datagram", "on": name, "data": data.decode("latin1")}), flush=True)
            if peer:
                s.sendto(reply, peer)
`;

interface Listener {
  readonly ports: Record<string, number>;
  /** Stops the service and returns every connection and datagram it saw. */
  readonly stop: () => Promise<unknown[]>;
}

async function listen(reply: string, unix: Record<string, string>): Promise<Listener> {
  const child = spawn(PYTHON, ["-c", LISTENER, reply, JSON.stringify(unix)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  onCleanup(() => child.kill("SIGKILL"));
  const lines = createInterface({ input: child.stdout });
  const events: unknown[] = [];
  const ready = new Promise<Record<string, number>>((resolve) => {
    lines.on("line", (line) => {
      const message = JSON.parse(line) as { ready?: Record<string, number> };
      if (message.ready !== undefined) resolve(message.ready);
      else events.push(message);
    });
  });
  const ports = await ready;
  const stop = async () => {
    const closed = new Promise((resolve) => child.on("close", resolve));
    child.stdin.end();
    await closed;
    return events;
  };
  return { ports, stop };
}

// Tries every way to a UNIX socket: socket()+connect, and the datagram sockets of a
// socketpair (which seccomp allows) aimed at an address with sendto and connect.
const UNIX = `
import socket
U, D, S = socket.AF_UNIX, socket.SOCK_DGRAM, socket.SOCK_STREAM
def at(a):
    return "\\0" + a[1:] if a.startswith("@") else a
for kind, t in (("stream", S), ("dgram", D), ("seqpacket", socket.SOCK_SEQPACKET)):
    probe("socket-" + kind, lambda: socket.socket(U, t).close())

def connect(a, t):
    s = socket.socket(U, t)
    s.settimeout(1)
    s.connect(at(a))
    if t == S:
        return s.recv(100)
    s.send(b"attack")
    return s.recv(100)

def pair_sendto(a):
    x, _ = socket.socketpair(U, D)
    x.sendto(b"attack-sendto", at(a))
    return "sent"

def pair_connect(a):
    x, _ = socket.socketpair(U, D)
    x.connect(at(a))
    x.send(b"attack-connect")
    return "sent"

def pair_stream(a):
    x, _ = socket.socketpair(U, S)
    x.connect(at(a))
    return x.recv(100)

for name, a in ARGS["addrs"].items():
    probe("connect:" + name, lambda: connect(a, D if name.endswith("dgram") else S))
    probe("pair-sendto:" + name, lambda: pair_sendto(a))
    probe("pair-connect:" + name, lambda: pair_connect(a))
    probe("pair-stream:" + name, lambda: pair_stream(a))

def roundtrip(t):
    x, y = socket.socketpair(U, t)
    x.send(b"ping")
    return y.recv(10)
probe("socketpair-stream", lambda: roundtrip(S))
probe("socketpair-dgram", lambda: roundtrip(D))
`;

// IP and the other families, to the host listener's ports.
const NET = `
import socket
P = ARGS["ports"]
def tcp(family, host, port):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(2)
    s.connect((host, port))
    return s.recv(100)
def udp(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(2)
    s.sendto(b"attack", ("127.0.0.1", port))
    return s.recv(100)
probe("tcp4", lambda: tcp(socket.AF_INET, "127.0.0.1", P["tcp4"]))
if "tcp6" in P:
    probe("tcp6", lambda: tcp(socket.AF_INET6, "::1", P["tcp6"]))
probe("udp4", lambda: udp(P["udp4"]))
probe("raw-icmp", lambda: socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP))
for name, family, kind in (("netlink", 16, socket.SOCK_RAW), ("packet", 17, socket.SOCK_RAW),
                           ("vsock", 40, socket.SOCK_STREAM), ("xdp", 44, socket.SOCK_RAW),
                           ("alg", 38, socket.SOCK_SEQPACKET), ("key", 15, socket.SOCK_RAW)):
    probe(name, lambda: socket.socket(family, kind, 0).close())
`;

function unixAddresses(f: Fixture) {
  const tag = randomBytes(6).toString("hex");
  return {
    outside: {
      "outside-stream": join(f.outside, "service.sock"),
      "outside-dgram": join(f.outside, "log.sock"),
      "abstract-stream": `@bridle-boundary-${tag}-stream`,
      "abstract-dgram": `@bridle-boundary-${tag}-dgram`,
      "read-stream": join(f.read, "service.sock"),
    },
    readDgram: { "read-dgram": join(f.read, "log.sock") },
  };
}

// The launcher is Linux-only (namespaces, Landlock, seccomp).
describe.skipIf(process.platform !== "linux")("kernel boundary: sockets and network", () => {
  beforeAll(async () => {
    await setUpLauncher();
  });

  describe.each(modes)("as $name", (mode) => {
    it(`class 4 (unix sockets) as ${mode.name}: host services by path or abstract name are unreachable`, async () => {
      const f = fixture(mode);
      const reply = canary();
      const { outside, readDgram } = unixAddresses(f);
      const service = await listen(reply, { ...outside, ...readDgram });
      const state = hostState();
      const tree = snapshot([f.base], [f.write]);
      // Well-known host sockets, by their usual paths: absent from the view.
      const wellKnown = {
        "docker-stream": "/var/run/docker.sock",
        "dbus-stream": "/run/dbus/system_bus_socket",
        "devlog-dgram": "/dev/log",
      };
      const a = await attack(mode, funnelPolicy(f), UNIX, { addrs: { ...outside, ...wellKnown } });
      expectContained(a, [reply, ...f.canaries]);
      expect(await service.stop()).toEqual([]);
      expect(outcomes(a, ["socket-stream", "socket-dgram", "socket-seqpacket"])).toEqual({
        "socket-stream": EACCES,
        "socket-dgram": EACCES,
        "socket-seqpacket": EACCES,
      });
      for (const name of Object.keys({ ...outside, ...wellKnown })) {
        const tried = outcomes(a, [
          `pair-sendto:${name}`,
          `pair-connect:${name}`,
          `pair-stream:${name}`,
        ]);
        for (const [probe, outcome] of Object.entries(tried)) expect(outcome, probe).not.toBe("ok");
      }
      // A datagram pair, whose end could be aimed at any socket path, is refused outright.
      expect(outcomes(a, ["pair-sendto:outside-dgram", "pair-sendto:devlog-dgram"])).toEqual({
        "pair-sendto:outside-dgram": EACCES,
        "pair-sendto:devlog-dgram": EACCES,
      });
      expect(outcomes(a, ["pair-sendto:abstract-dgram"])).toEqual({
        "pair-sendto:abstract-dgram": EACCES,
      });
      // Positive control: a connected socketpair works both ways (a datagram pair is refused).
      expect(value(a, "socketpair-stream")).toBe("ping");
      expect(outcomes(a, ["socketpair-dgram"])).toEqual({ "socketpair-dgram": EACCES });
      expect(snapshot([f.base], [f.write])).toEqual(tree);
      expect(hostState()).toEqual(state);
    });

    // Was a hole: socketpair(AF_UNIX, SOCK_DGRAM) gave a datagram socket that sendto(2)
    // or connect(2) could aim at any socket path. Unless `net all`, seccomp now allows
    // only the connected kinds (stream, seqpacket), whose ends cannot be re-aimed.
    it(`class 4 (unix sockets) as ${mode.name}: a socketpair datagram cannot reach a host socket inside the read root`, async () => {
      const f = fixture(mode);
      const reply = canary();
      const { readDgram } = unixAddresses(f);
      const service = await listen(reply, readDgram);
      const a = await attack(mode, funnelPolicy(f), UNIX, { addrs: readDgram });
      expectRan(a);
      expect(await service.stop()).toEqual([]);
      expect(outcomes(a, ["pair-sendto:read-dgram", "pair-connect:read-dgram"])).not.toContain(
        "ok",
      );
    });

    it(`network as ${mode.name}: under net deny-all no IP socket reaches a host loopback listener`, async () => {
      const f = fixture(mode);
      const reply = canary();
      const service = await listen(reply, {});
      const state = hostState();
      const denied = await attack(mode, funnelPolicy(f), NET, { ports: service.ports });
      expectContained(denied, [reply, ...f.canaries]);
      const ip =
        "tcp6" in service.ports
          ? ["tcp4", "tcp6", "udp4", "raw-icmp"]
          : ["tcp4", "udp4", "raw-icmp"];
      for (const [probe, outcome] of Object.entries(outcomes(denied, ip))) {
        expect(outcome, probe).toBe(EACCES);
      }
      const others = ["netlink", "packet", "vsock", "xdp", "alg", "key"];
      expect(Object.values(outcomes(denied, others))).toEqual(others.map(() => EAFNOSUPPORT));
      expect(await service.stop()).toEqual([]);
      expect(hostState()).toEqual(state);

      // Positive control: with net all, the same program reaches the same listener.
      const open = await listen(reply, {});
      const allowed = await attack(
        mode,
        funnelPolicy(f, { netDenyAll: false, netAll: true }),
        NET,
        {
          ports: open.ports,
        },
      );
      expectRan(allowed);
      expect(value(allowed, "tcp4")).toBe(reply);
      expect(value(allowed, "udp4")).toBe(reply);
      const seen = await open.stop();
      expect(seen).toContainEqual({ event: "connect", on: "tcp4" });
      expect(seen).toContainEqual({ event: "datagram", on: "udp4", data: "attack" });
      // Netlink, packet, vsock, … stay refused under every grant.
      expect(Object.values(outcomes(allowed, others))).toEqual(others.map(() => EAFNOSUPPORT));
      expect(allowed.leftover).toEqual([]);
    });
  });
});
