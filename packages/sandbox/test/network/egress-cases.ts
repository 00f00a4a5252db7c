// Issue 16's cases, each a set of runs whose reports the test judges (egress.test.ts).
// Every refusal has its positive control in the same case.
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import type { RunReport, Scope } from "./egress-scenarios.js";

export type CaseReport = Record<string, RunReport | string>;
type Case = (scope: Scope) => Promise<CaseReport>;

const CURL = ["curl", "-sS", "-f", "-m", "10"];
const PY = "/usr/bin/python3";
const NOBODY = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"];
const execFileAsync = promisify(execFile);

export const CASES: Record<string, Case> = {
  async "curl over HTTP: a granted name works, an ungranted one is refused"({ run, servers }) {
    const url = (host: string) => `http://${host}:${servers.http}/`;
    return {
      granted: await run(["allowed.test"], [...CURL, url("allowed.test")]),
      refused: await run(["allowed.test"], [...CURL, url("denied.test")]),
    };
  },
  async "curl over HTTPS through CONNECT, and through SOCKS5"({ run, servers }) {
    const url = `https://allowed.test:${servers.https}/`;
    return {
      connect: await run(["allowed.test"], [...CURL, "--cacert", servers.caFile, url]),
      socks: await run(
        ["allowed.test"],
        [
          "/bin/sh",
          "-c",
          `curl -sS -f -m 10 --cacert ${servers.caFile} --proxy "$ALL_PROXY" ${url}`,
        ],
      ),
      socksRefused: await run(
        ["allowed.test"],
        [
          "/bin/sh",
          "-c",
          `curl -sS -f -m 10 --proxy "$ALL_PROXY" http://denied.test:${servers.http}/`,
        ],
      ),
    };
  },
  async "wildcards match subdomains, not the apex; a port binds"({ run, servers }) {
    return {
      subdomain: await run(
        ["*.allowed.test"],
        [...CURL, `http://other.allowed.test:${servers.http}/`],
      ),
      apex: await run(["*.allowed.test"], [...CURL, `http://allowed.test:${servers.http}/`]),
      port: await run(
        [`allowed.test:${servers.https}`],
        [...CURL, `http://allowed.test:${servers.http}/`],
      ),
    };
  },
  async "a granted name resolving to a loopback address is refused; a literal grant reaches it"({
    run,
    servers,
  }) {
    const internal = { publicAddresses: [] };
    return {
      internal: await run(["allowed.test"], [...CURL, `http://allowed.test:${servers.http}/`], {
        hooks: internal,
      }),
      literalNotGranted: await run(
        ["allowed.test"],
        [...CURL, `http://127.0.0.1:${servers.http}/`],
        { hooks: internal },
      ),
      literalGranted: await run(
        [`127.0.0.1:${servers.http}`],
        [...CURL, `http://127.0.0.1:${servers.http}/`],
        { hooks: internal },
      ),
    };
  },
  async "a direct connect() without the proxy variables reaches nothing"({ run, servers }) {
    const script = `
import socket, sys
for host in ("127.0.0.1", "::1"):
    try:
        socket.create_connection((host, ${servers.tcp}), timeout=3)
        print("connected", host)
    except OSError as e:
        print("refused", host, e.errno)
`;
    return {
      direct: await run(
        ["allowed.test"],
        ["env", "-u", "http_proxy", "-u", "HTTP_PROXY", PY, "-c", script],
      ),
      control: await run(
        ["allowed.test"],
        [
          PY,
          "-c",
          `
import urllib.request
print(urllib.request.urlopen("http://allowed.test:${servers.http}/", timeout=10).read().decode().strip())
`,
        ],
      ),
    };
  },
  async "nothing outside the call can reach the proxy"({ run, servers, base }) {
    // The call fetches, waits while intruders outside it try every way in, and fetches
    // again: its own traffic flows before and after, theirs reaches nothing.
    const ready = join(base, "intruders-may-try");
    const done = join(base, "intruders-tried");
    const call = `
import os, time, urllib.request
get = lambda: urllib.request.urlopen("http://allowed.test:${servers.http}/", timeout=10).read().decode().strip()
print(get())
open(${JSON.stringify(ready)}, "w").close()
for _ in range(200):
    if os.path.exists(${JSON.stringify(done)}): break
    time.sleep(0.05)
print(get())
`;
    const running = run(["allowed.test"], [PY, "-c", call]);
    for (let i = 0; i < 400 && !existsSync(ready); i += 1) await sleep(25);
    const intruder = `
import glob, os, socket, sys
host = sys.argv[1]
# Every UNIX socket the host process holds that a path or an abstract name leads to.
inodes = set()
for fd in glob.glob(f"/proc/{host}/fd/*"):
    try:
        link = os.readlink(fd)
    except OSError:
        continue
    if link.startswith("socket:["):
        inodes.add(link[8:-1])
named = []
for line in open("/proc/net/unix").read().splitlines()[1:]:
    fields = line.split()
    if len(fields) >= 8 and fields[6] in inodes:
        named.append(fields[7])
named += glob.glob(${JSON.stringify(`${base}/bridle-net-*`)} + "/*")
print("named", len(named))
for path in named:
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect("\\0" + path[1:] if path.startswith("@") else path)
        s.sendall(b"CONNECT allowed.test:${servers.http} HTTP/1.1\\r\\n\\r\\n")
        print("reached", path, s.recv(100))
    except OSError as e:
        print("refused", path, e.errno)
for port in (3128, 1080):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=2)
        s.sendall(b"CONNECT allowed.test:${servers.http} HTTP/1.1\\r\\n\\r\\n")
        s.settimeout(2)
        print("answered", port, s.recv(100))
    except OSError as e:
        print("refused", port)
`;
    const as = async (wrap: readonly string[]) => {
      const argv = [...wrap, PY, "-c", intruder, String(process.pid)];
      try {
        const { stdout } = await execFileAsync(argv[0] as string, argv.slice(1), {
          timeout: 20_000,
        });
        return stdout;
      } catch (error) {
        return `failed: ${String(error)}`;
      }
    };
    const sameUser = await as([]);
    const nobody = process.getuid?.() === 0 ? await as(NOBODY) : "not root";
    writeFileSync(done, "");
    return { call: await running, sameUser, nobody };
  },
  async "UDP and DNS reach nothing"({ run, servers }) {
    const script = `
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
try:
    s.sendto(b"x", ("127.0.0.1", ${servers.udp}))
    print("udp sent")
except OSError as e:
    print("udp refused", e.errno)
try:
    print("resolved", socket.getaddrinfo("allowed.test", 80))
except OSError as e:
    print("dns failed")
`;
    return { udp: await run(["allowed.test"], [PY, "-c", script]) };
  },
  async "nothing connects after the call ended"({ run, servers }) {
    const later = `setsid sh -c 'sleep 1; curl -s -m 5 http://allowed.test:${servers.http}/ > /dev/null' > /dev/null 2>&1 < /dev/null & echo started`;
    const report = await run(["allowed.test"], ["/bin/sh", "-c", later]);
    const before = servers.hits.http;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const lateHits = String(servers.hits.http - before);
    // Control: the same connection, made while the call runs, gets through.
    const during = await run(
      ["allowed.test"],
      ["/bin/sh", "-c", `sleep 1; curl -s -m 5 http://allowed.test:${servers.http}/`],
    );
    return { report, lateHits, during };
  },
  async "node and Python urllib use the proxy; git clones over HTTP"({ run, servers, base }) {
    const repo = join(base, "files", "repo.git");
    mkdirSync(join(base, "files"), { recursive: true });
    const work = join(base, "work");
    execFileSync("git", ["init", "-q", "-b", "main", work]);
    writeFileSync(join(work, "README"), "cloned through the proxy\n");
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", work, "-c", "user.name=t", "-c", "user.email=t@t", ...args]);
    git("add", "README");
    git("commit", "-q", "-m", "one");
    execFileSync("git", ["clone", "-q", "--bare", work, repo]);
    execFileSync("git", ["-C", repo, "update-server-info"]);
    const node = `
const http = require("node:http"), tls = require("node:tls"), fs = require("node:fs");
const proxy = new URL(process.env.HTTPS_PROXY);
const req = http.request({ host: proxy.hostname, port: proxy.port, method: "CONNECT", path: "allowed.test:${servers.https}" });
req.on("connect", (res, socket) => {
  const s = tls.connect({ socket, servername: "allowed.test", ca: fs.readFileSync(${JSON.stringify(servers.caFile)}) }, () => {
    s.write("GET / HTTP/1.1\\r\\nHost: allowed.test\\r\\nConnection: close\\r\\n\\r\\n");
  });
  let body = ""; s.on("data", (d) => (body += d)); s.on("end", () => console.log(body.split("\\r\\n\\r\\n")[1].trim()));
});
req.end();
`;
    return {
      node: await run(["allowed.test"], [process.execPath, "-e", node]),
      git: await run(
        ["allowed.test"],
        [
          "/bin/sh",
          "-c",
          `git clone -q http://allowed.test:${servers.http}/files/files/repo.git ${join(base, "clone")} && cat ${join(base, "clone", "README")}`,
        ],
      ),
      gitRefused: await run(
        ["allowed.test"],
        [
          "git",
          "clone",
          "-q",
          `http://denied.test:${servers.http}/files/files/repo.git`,
          join(base, "clone2"),
        ],
      ),
    };
  },
  async "npm installs and pip downloads from loopback indexes by name"({ run, servers, base }) {
    const files = base; // served under /files/
    // An npm registry: the package document and its tarball, served under /files/npm/.
    const source = join(base, "pkg-src");
    mkdirSync(source, { recursive: true });
    writeFileSync(
      join(source, "package.json"),
      JSON.stringify({ name: "bridle-demo", version: "1.0.0" }),
    );
    writeFileSync(join(source, "index.js"), "module.exports = 'installed through the proxy';\n");
    mkdirSync(join(files, "npm"), { recursive: true });
    execFileSync("npm", ["pack", "--silent", "--pack-destination", join(files, "npm"), source], {
      cwd: base,
      env: { ...process.env, npm_config_cache: join(base, "npm-cache-host") },
    });
    const tarball = readFileSync(join(files, "npm", "bridle-demo-1.0.0.tgz"));
    const registry = `http://allowed.test:${servers.http}/files/npm/`;
    writeFileSync(
      join(files, "npm", "bridle-demo"),
      JSON.stringify({
        name: "bridle-demo",
        "dist-tags": { latest: "1.0.0" },
        versions: {
          "1.0.0": {
            name: "bridle-demo",
            version: "1.0.0",
            dist: {
              tarball: `${registry}bridle-demo-1.0.0.tgz`,
              shasum: createHash("sha1").update(tarball).digest("hex"),
              integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
            },
          },
        },
      }),
    );
    // A simple index for pip: one wheel, built by hand (a zip with its metadata).
    const simple = join(files, "simple", "bridle-demo");
    mkdirSync(simple, { recursive: true });
    execFileSync(PY, [
      "-c",
      `
import zipfile, sys
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("bridle_demo/__init__.py", "")
    z.writestr("bridle_demo-1.0.dist-info/METADATA", "Metadata-Version: 2.1\\nName: bridle-demo\\nVersion: 1.0\\n")
    z.writestr("bridle_demo-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\\nGenerator: hand\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    z.writestr("bridle_demo-1.0.dist-info/RECORD", "")
`,
      join(simple, "bridle_demo-1.0-py3-none-any.whl"),
    ]);
    writeFileSync(
      join(simple, "index.html"),
      '<html><body><a href="bridle_demo-1.0-py3-none-any.whl">bridle_demo-1.0-py3-none-any.whl</a></body></html>',
    );
    const project = join(base, "project");
    mkdirSync(project);
    const npm = `cd ${project} && HOME=${project} npm_config_cache=${join(base, "npm-cache")} npm install --loglevel=error --no-audit --no-fund --registry ${registry} bridle-demo && node -p "require('bridle-demo')"`;
    const pip = (host: string) =>
      `${PY} -m pip download --disable-pip-version-check --no-cache-dir --no-deps --quiet --trusted-host ${host} --index-url http://${host}:${servers.http}/files/simple/ -d ${join(base, `wheels-${host}`)} bridle-demo && ls ${join(base, `wheels-${host}`)}`;
    return {
      npm: await run(["allowed.test"], ["/bin/sh", "-c", npm]),
      npmRefused: await run(
        ["allowed.test"],
        [
          "/bin/sh",
          "-c",
          npm
            .replace(registry, registry.replace("allowed.test", "denied.test"))
            .replace("install", "install --fetch-retries=0"),
        ],
      ),
      pip: await run(["allowed.test"], ["/bin/sh", "-c", pip("allowed.test")]),
      pipRefused: await run(["allowed.test"], ["/bin/sh", "-c", pip("denied.test")]),
    };
  },
  async "the proxy caps concurrent connections per call"({ run, servers }) {
    const script = `
import os, socket
def tunnel():
    s = socket.create_connection(("127.0.0.1", 3128))
    s.sendall(b"CONNECT allowed.test:${servers.https} HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
    return s, s.recv(200).split(b"\\r\\n")[0].decode()
held = [tunnel() for _ in range(3)]
print([line for _, line in held])
`;
    return { capped: await run(["allowed.test"], [PY, "-c", script], { maxNetConnections: 2 }) };
  },
};
