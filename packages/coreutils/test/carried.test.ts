import { execFileSync, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AuditSink } from "@agent-bridle/core";
import { spawnConfined } from "@agent-bridle/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriedIdentity, encodeRequest } from "../src/carried/carried-frame.js";
import { runWithFrame } from "../src/carried/run-carried.js";
import { carriedArgv, carriedEntryPath, runCarried } from "../src/index.js";
import { runGnu } from "./helpers/run-gnu.js";

const SECRET = "top-secret-content-4711";
const REFUSED = "agent-bridle: private parent authentication failed: ";
const audit: AuditSink = { record: () => undefined };
let root: string;

beforeAll(() => {
  // The entry runs under plain Node: spawn the BUILT file (tests import the sources).
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", "packages/coreutils"], { stdio: "ignore" });
  if (!existsSync(carriedEntryPath())) {
    throw new Error(
      `carried entry not built at ${carriedEntryPath()}: npx tsc -b packages/coreutils`,
    );
  }
  root = mkdtempSync(join(tmpdir(), "coreutils-carried-"));
  writeFileSync(join(root, "secret"), `${SECRET}\n`);
  mkdirSync(join(root, "dir"));
  writeFileSync(join(root, "dir", "MARKER.txt"), "marker\n");
  writeFileSync(join(root, "a"), "1\n2\n");
  writeFileSync(join(root, "b"), "1\n2\n3\n");
  writeFileSync(join(root, "short"), "x\n");
  writeFileSync(join(root, "long"), "1\n2\n3\n4\n5\n6\n");
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function spawner(stdin?: number) {
  return (request: { argv: readonly string[]; extraDescriptors: readonly number[] }) =>
    spawnConfined({
      argv: request.argv,
      extraDescriptors: request.extraDescriptors,
      exec: "all",
      audit,
      toolName: "carried-test",
      home: root,
      tmpdir: root,
      // The host PATH points nowhere: nothing is looked up (reference case 91).
      env: { PATH: "/nonexistent" },
      cwd: root,
      stdin,
      timeoutMs: 20_000,
      maxOutputBytes: 1 << 20,
    });
}

async function carried(name: string, argv: string[], stdin?: number) {
  const run = await runCarried({ name, argv }, spawner(stdin));
  if (run.outcome.kind !== "ran") throw new Error(run.outcome.kind);
  const { result } = run.outcome;
  return {
    acknowledged: run.acknowledged,
    status: result.exitCode,
    stdout: result.stdout.toString("latin1"),
    stderr: result.stderr.toString("latin1"),
  };
}

/** Spawns the entry with the frame for `frame` but the argv of `spawned`. */
async function forged(frame: [string, string[]], spawned: [string, string[]], trailing?: Buffer) {
  const argv = carriedArgv({ name: spawned[0], argv: spawned[1] });
  const run = await runWithFrame({ name: frame[0], argv: frame[1] }, argv, spawner(), trailing);
  if (run.outcome.kind !== "ran") throw new Error(run.outcome.kind);
  const { result } = run.outcome;
  return {
    acknowledged: run.acknowledged,
    status: result.exitCode,
    stdout: result.stdout.toString("latin1"),
    stderr: result.stderr.toString("latin1"),
  };
}

function handRun(argv: string[], fd3?: number) {
  const stdio: (number | "ignore" | "pipe")[] = ["ignore", "pipe", "pipe"];
  if (fd3 !== undefined) stdio.push(fd3);
  const result = spawnSync(process.execPath, [carriedEntryPath(), ...argv], {
    cwd: root,
    stdio,
    timeout: 20_000,
  });
  return {
    status: result.status,
    stdout: result.stdout.toString("latin1"),
    stderr: result.stderr.toString("latin1"),
  };
}

describe("carried entry: refused before touching anything", () => {
  it("a direct --invoke-bundled cat <secret> exits 126 and prints nothing of the file", () => {
    const run = handRun(["--invoke-bundled", "cat", "secret"]);
    // Without an inherited descriptor 3, Node's own start-up may hold that number.
    expect(run.status).toBe(126);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      /^agent-bridle: private parent authentication failed: (no private channel on descriptor 3|descriptor 3 is not a socket)\n$/,
    );
  });

  it("refuses a forged frame on a descriptor that is not a socket", () => {
    const path = join(root, "frame");
    const identity = carriedIdentity({ name: "cat", argv: ["secret"] });
    writeFileSync(path, encodeRequest(Buffer.alloc(32), identity));
    const fd = openSync(path, "r");
    try {
      const run = handRun(["--invoke-bundled", "cat", "secret"], fd);
      expect(run).toEqual({
        status: 126,
        stdout: "",
        stderr: `${REFUSED}descriptor 3 is not a socket\n`,
      });
    } finally {
      closeSync(fd);
    }
  });

  it("a missing name is 2, a malformed entrypoint is 2", () => {
    expect(handRun(["--invoke-bundled"])).toEqual({
      status: 2,
      stdout: "",
      stderr: "agent-bridle: --invoke-bundled requires a command name\n",
    });
    expect(handRun(["cat", "secret"]).status).toBe(2);
  });
});

describe("carried entry: authenticated by its parent", () => {
  it("cat <secret> runs and equals GNU cat", async () => {
    const run = await carried("cat", ["-n", "secret", "missing"]);
    const gnu = runGnu("cat", ["-n", "secret", "missing"], root);
    expect(run).toEqual({
      acknowledged: true,
      status: gnu.status,
      stdout: gnu.stdout.toString("latin1"),
      stderr: gnu.stderr.toString("latin1"),
    });
  });

  it("an unknown name (authenticated) is 127", async () => {
    expect(await carried("rm", ["secret"])).toEqual({
      acknowledged: true,
      status: 127,
      stdout: "",
      stderr: "agent-bridle: unknown bundled command: rm\n",
    });
  });

  it("case 91 (carried half): ls, cat, wc -l a b, and wc | sort -nr | head -1", async () => {
    expect((await carried("ls", ["dir"])).stdout).toBe("MARKER.txt\n");
    expect((await carried("cat", ["dir/MARKER.txt"])).stdout).toBe("marker\n");
    // GNU pads to the width of the byte sizes: counts 2, 3, 5.
    expect((await carried("wc", ["-l", "a", "b"])).stdout).toBe(" 2 a\n 3 b\n 5 total\n");
    let text = (await carried("wc", ["-l", "short", "long"])).stdout;
    for (const [name, argv] of [
      ["sort", ["-nr"]],
      ["head", ["-1"]],
    ] as const) {
      const path = join(root, `pipe-${name}`);
      writeFileSync(path, text);
      const fd = openSync(path, "r");
      try {
        text = (await carried(name, [...argv], fd)).stdout;
      } finally {
        closeSync(fd);
      }
    }
    expect(text).toBe(" 7 total\n");
  });
});

describe("case 92: the identity binds name, argument boundaries and order", () => {
  it("encodes cat [a, b], cat [ab], cat [a b] and head [a, b] differently", () => {
    const identities = [
      carriedIdentity({ name: "cat", argv: ["a", "b"] }),
      carriedIdentity({ name: "cat", argv: ["ab"] }),
      carriedIdentity({ name: "cat", argv: ["a b"] }),
      carriedIdentity({ name: "cat", argv: ["b", "a"] }),
      carriedIdentity({ name: "head", argv: ["a", "b"] }),
    ].map((bytes) => bytes.toString("hex"));
    expect(new Set(identities).size).toBe(identities.length);
  });

  it.each([
    { title: "one argument 'a b' vs two", frame: ["cat", ["a b"]], spawned: ["cat", ["a", "b"]] },
    { title: "two arguments vs one 'a b'", frame: ["cat", ["a", "b"]], spawned: ["cat", ["a b"]] },
    { title: "joined 'ab' vs two", frame: ["cat", ["ab"]], spawned: ["cat", ["a", "b"]] },
    { title: "reordered arguments", frame: ["cat", ["a", "b"]], spawned: ["cat", ["b", "a"]] },
    { title: "a different name", frame: ["head", ["a", "b"]], spawned: ["cat", ["a", "b"]] },
  ] as const)("refuses $title with 126, nothing run", async ({ frame, spawned }) => {
    const run = await forged([frame[0], [...frame[1]]], [spawned[0], [...spawned[1]]]);
    expect(run).toEqual({
      acknowledged: false,
      status: 126,
      stdout: "",
      stderr: `${REFUSED}the frame's identity is not this invocation's name and argv\n`,
    });
  });

  it("refuses a second frame after the first", async () => {
    const second = encodeRequest(Buffer.alloc(32), carriedIdentity({ name: "cat", argv: ["a"] }));
    const run = await forged(["cat", ["a"]], ["cat", ["a"]], second);
    expect(run).toEqual({
      acknowledged: false,
      status: 126,
      stdout: "",
      stderr: `${REFUSED}more than one frame\n`,
    });
  });
});

const PYTHON = spawnSync("python3", ["-c", "pass"]).status === 0;

describe.skipIf(!PYTHON)("a different-image parent with a real socket pair", () => {
  it("sends the exact frame and is still refused (126, nothing printed)", () => {
    const frame = encodeRequest(
      Buffer.alloc(32, 7),
      carriedIdentity({ name: "cat", argv: ["secret"] }),
    ).toString("hex");
    const script = [
      "import os, socket, subprocess, sys",
      "mine, theirs = socket.socketpair()",
      `mine.sendall(bytes.fromhex("${frame}")); mine.shutdown(socket.SHUT_WR)`,
      "os.dup2(theirs.fileno(), 3)",
      "child = subprocess.run(sys.argv[1:], pass_fds=(3,), capture_output=True)",
      "sys.stdout.buffer.write(child.stdout); sys.stderr.buffer.write(child.stderr)",
      "sys.exit(child.returncode)",
    ].join("\n");
    const result = spawnSync(
      "python3",
      ["-c", script, process.execPath, carriedEntryPath(), "--invoke-bundled", "cat", "secret"],
      { cwd: root, timeout: 20_000 },
    );
    expect({
      status: result.status,
      stdout: result.stdout.toString("latin1"),
      stderr: result.stderr.toString("latin1"),
    }).toEqual({
      status: 126,
      stdout: "",
      stderr: `${REFUSED}parent image is not this executable\n`,
    });
  });
});
