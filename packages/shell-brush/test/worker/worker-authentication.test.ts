import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { defaultPathPolicy, Gate, top } from "@agent-bridle/core";
import { createSandbox, NONE_BACKEND } from "@agent-bridle/sandbox";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { launchWorker } from "../../src/tool/launch-worker.js";
import { workerFilePath } from "../../src/tool/worker-file.js";
import { encodeControl, REQUEST_MAGIC } from "../../src/worker/control-frames.js";

const tempDir = useTempDirs("brush-auth-", "each");

const context = () =>
  new Gate({ pathPolicy: defaultPathPolicy({ platform: "linux", home: undefined }) }).authorize(
    { name: "shell", required: top() },
    top(),
  );

const options = {
  sandbox: createSandbox({ backend: NONE_BACKEND, home: "/nonexistent-home", tmpdir: "/tmp" }),
  cwd: "/",
  maxOutputBytes: 1 << 20,
  maxWrittenBytes: 1 << 30,
  maxCallMs: 10_000,
  idleMs: 10_000,
};

describe("the bash worker runs nothing unless its launching parent authenticated it (ADR 0008)", () => {
  it("a hand-run worker exits 126 before anything runs", () => {
    const run = spawnSync(process.execPath, [workerFilePath(), "--agent-bridle-worker", "brush"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { AGENT_BRIDLE_WORKER_NONCE: "a".repeat(64) },
    });
    expect(run.status).toBe(126);
    expect(run.stderr.toString()).toMatch(/trusted worker authentication failed/);
    expect(run.stdout.length).toBe(0);
  });

  it("a malformed entrypoint exits 2", () => {
    const run = spawnSync(process.execPath, [workerFilePath(), "--agent-bridle-worker", "bash"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(run.status).toBe(2);
    expect(run.stderr.toString()).toContain("invalid private worker entrypoint");
  });

  it("a second request is refused with 126 and neither runs", async () => {
    const dir = tempDir();
    const worker = await launchWorker(context(), options);
    expect(worker.kind).toBe("ready");
    if (worker.kind !== "ready") return;
    const request = (name: string) =>
      encodeControl(REQUEST_MAGIC, {
        nonce: worker.nonce,
        cmd: `echo > ${join(dir, name)}`,
        cwd: dir,
        env: {},
        timeout_ms: 5000,
      });
    worker.channel.end(Buffer.concat([request("first"), request("second")]));
    const outcome = await worker.outcome;
    expect(outcome.kind).toBe("ran");
    if (outcome.kind !== "ran") return;
    expect(outcome.result.exitCode).toBe(126);
    expect(outcome.result.stderr.toString()).toContain("more than one request");
    expect(existsSync(join(dir, "first"))).toBe(false);
    expect(existsSync(join(dir, "second"))).toBe(false);
  });

  it("a request carrying another nonce is refused with 126", async () => {
    const dir = tempDir();
    const worker = await launchWorker(context(), options);
    if (worker.kind !== "ready") throw new Error("worker did not start");
    worker.channel.end(
      encodeControl(REQUEST_MAGIC, {
        nonce: "b".repeat(64),
        cmd: `echo > ${join(dir, "ran")}`,
        cwd: dir,
        env: {},
        timeout_ms: 5000,
      }),
    );
    const outcome = await worker.outcome;
    if (outcome.kind !== "ran") throw new Error("worker did not run");
    expect(outcome.result.exitCode).toBe(126);
    expect(existsSync(join(dir, "ran"))).toBe(false);
  });
});
