import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { workerCommand } from "../../src/tool/worker-file.js";
import { encodeAck } from "../../src/worker/control-frames.js";
import {
  freshNonce,
  handRun,
  launchBody,
  launcherPath,
  launchFrame,
  requestFrame,
  workerEnv,
} from "./worker-harness.js";

const tempDir = useTempDirs("brush-ref-auth-");
const REFUSED = /^agent-bridle: trusted worker authentication failed: /;

/** A launch frame and a marker-writing request, both carrying `nonce`. */
function framesFor(nonce: string, dir: string) {
  return Buffer.concat([
    launchFrame(launchBody(nonce)),
    requestFrame(nonce, `echo ran > ${join(dir, "ran")}`, dir),
  ]);
}

/** A parent of another image (Python) with a real socketpair that answers the worker. */
const PYTHON_PARENT = `
import os, socket, subprocess, sys
ours, theirs = socket.socketpair()
os.dup2(theirs.fileno(), 3, inheritable=True)
child = subprocess.Popen(sys.argv[2:], pass_fds=(3,), stdin=subprocess.DEVNULL)
os.close(3)
theirs.close()
try:
    ours.sendall(bytes.fromhex(sys.argv[1]))
    ours.shutdown(socket.SHUT_WR)
    while ours.recv(65536):
        pass
except OSError:
    pass  # the worker refused and closed its end first
sys.exit(child.wait())
`;

function runPython(args: readonly string[], env: Record<string, string>) {
  const child = spawn("python3", ["-c", PYTHON_PARENT, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...env, PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
  const stderr: Buffer[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  child.stdout.resume();
  return new Promise<{ status: number | null; stderr: string }>((resolve) =>
    child.on("close", (status) => resolve({ status, stderr: Buffer.concat(stderr).toString() })),
  );
}

describe("a worker not started by its engine runs nothing (reference cases 77, 78 as adapted by spec §13 and ADR 0008)", () => {
  it("control: the same hand-built frames from the worker's real parent do run (so the refusals below are the checks')", async () => {
    const dir = tempDir();
    const nonce = freshNonce();
    const run = await handRun({
      send: framesFor(nonce, dir),
      env: workerEnv(nonce, await launcherPath()),
    });
    expect(run.status).toBe(0);
    expect(run.channel.subarray(0, 8 + 64)).toEqual(encodeAck(nonce));
    expect(existsSync(join(dir, "ran"))).toBe(true);
  });

  it("77: a hand-run worker with a forged nonce in its launch frame exits 126 before anything runs", async () => {
    const dir = tempDir();
    const nonce = freshNonce();
    const forged = freshNonce();
    const run = await handRun({
      send: Buffer.concat([
        launchFrame(launchBody(forged)),
        requestFrame(forged, `echo > ${join(dir, "ran")}`, dir),
      ]),
      env: workerEnv(nonce, await launcherPath()),
    });
    expect(run.status).toBe(126);
    expect(run.stderr).toMatch(REFUSED);
    expect(run.stderr).toContain("nonce is not this worker's");
    expect(run.stdout).toBe("");
    expect(run.channel.length).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("77: a forged payload (not a launch frame, a script, another version, a zero output cap) exits 126 before anything runs", async () => {
    const dir = tempDir();
    const nonce = freshNonce();
    for (const send of [
      Buffer.concat([Buffer.from("ABBW-R1\0", "latin1"), framesFor(nonce, dir).subarray(8)]),
      Buffer.from(`#!/bin/sh\ntouch ${join(dir, "ran")}\n`),
      Buffer.concat([
        launchFrame(launchBody(nonce, { version: 2 })),
        requestFrame(nonce, `echo > ${join(dir, "ran")}`, dir),
      ]),
      Buffer.concat([
        launchFrame(launchBody(nonce, { max_output_bytes: 0 })),
        requestFrame(nonce, `echo > ${join(dir, "ran")}`, dir),
      ]),
    ]) {
      const run = await handRun({ send, env: workerEnv(nonce, await launcherPath()) });
      expect(run.status).toBe(126);
      expect(run.stderr).toMatch(REFUSED);
      expect(run.channel.length).toBe(0);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it("77: a hand-run worker without a nonce, or whose descriptor 3 is not a socket, exits 126", async () => {
    const dir = tempDir();
    const nonce = freshNonce();
    const noNonce = await handRun({ send: framesFor(nonce, dir), env: {} });
    expect(noNonce.status).toBe(126);
    expect(noNonce.stderr).toMatch(REFUSED);
    const file = join(dir, "frames");
    const fd = openSync(file, "w+");
    try {
      const notSocket = await handRun({
        send: Buffer.alloc(0),
        env: workerEnv(nonce, undefined),
        descriptor3: fd,
      });
      expect(notSocket.status).toBe(126);
      expect(notSocket.stderr).toMatch(REFUSED);
      expect(notSocket.stderr).toContain("descriptor 3 is not a socket");
    } finally {
      closeSync(fd);
    }
    expect(readdirSync(dir)).toEqual(["frames"]);
  });

  it("78: a worker whose channel peer is not its launching parent exits 126 before anything runs", async () => {
    const dir = tempDir();
    const nonce = freshNonce();
    const launcher = await launcherPath();
    expect(
      launcher,
      "this case needs the built launcher (kernel-attested peer credentials)",
    ).toBeDefined();
    // This process creates the channel and sends correct frames; an intermediate shell
    // (which does not exec) is the worker's parent.
    const run = await handRun({
      send: framesFor(nonce, dir),
      env: workerEnv(nonce, launcher),
      wrap: (argv) => ["/bin/sh", "-c", '"$@"; exit $?', "sh", ...argv],
    });
    expect(run.status).toBe(126);
    expect(run.stderr).toMatch(REFUSED);
    expect(run.stderr).toContain("the channel's peer is not the launching parent");
    expect(run.channel.length).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("78: a parent of another image (Python) with a real socketpair that answers exits the worker 126: parent image is not this executable", async () => {
    const dir = tempDir();
    const nonce = freshNonce();
    const run = await runPython(
      [framesFor(nonce, dir).toString("hex"), ...workerCommand().argv],
      workerEnv(nonce, await launcherPath()),
    );
    expect(run.status, run.stderr).toBe(126);
    expect(run.stderr).toMatch(REFUSED);
    expect(run.stderr).toContain("parent image is not this executable");
    expect(readdirSync(dir)).toEqual([]);
  });
});
