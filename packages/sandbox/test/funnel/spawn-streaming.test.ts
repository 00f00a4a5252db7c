import { existsSync } from "node:fs";
import { join } from "node:path";
import { only, top } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { spawnStreaming } from "../../src/funnel/spawn-streaming.js";
import { recordingAudit, useTempDir } from "./helpers/funnel-context.js";

const tempDir = useTempDir();

/** The common parts of a request: an open exec grant, a recording audit, fresh directories. */
function where() {
  return {
    exec: top().exec,
    audit: recordingAudit(),
    toolName: "t",
    cwd: tempDir(),
    home: tempDir(),
    tmpdir: tempDir(),
  };
}

function streams() {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  return {
    onStdout: (chunk: Buffer) => out.push(chunk),
    onStderr: (chunk: Buffer) => err.push(chunk),
    stdout: () => Buffer.concat(out).toString("utf8"),
    stderr: () => Buffer.concat(err).toString("utf8"),
  };
}

describe("spawnStreaming: the in-worker spawn entry", () => {
  it("streams output, feeds stdin bytes, keeps argv[0] as spelled and audits the spawn", async () => {
    const audit = recordingAudit();
    const io = streams();
    const outcome = await spawnStreaming({
      argv: ["/bin/sh", "-c", 'cat; echo "$0" >&2; echo "$HOME $FOO"', "zero"],
      ...where(),
      audit,
      home: "/home/configured",
      env: { FOO: "bar", LD_PRELOAD: "/evil.so" },
      stdin: Buffer.from("fed\n"),
      ...io,
    });
    expect(outcome).toMatchObject({ kind: "ran", exitCode: 0, cancelled: false });
    expect(io.stdout()).toBe("fed\n/home/configured bar\n");
    expect(io.stderr()).toBe("zero\n");
    expect(audit.events).toContainEqual(
      expect.objectContaining({ type: "spawn", decision: "admitted" }),
    );
  });

  it("reports a program killed by SIGXFSZ as the file-size limit, and only that", async () => {
    const killed = await spawnStreaming({
      argv: ["/bin/sh", "-c", "kill -XFSZ $$"],
      ...where(),
      ...streams(),
    });
    expect(killed).toMatchObject({ kind: "ran", signal: "SIGXFSZ", limitsExceeded: ["file_size"] });
    const failed = await spawnStreaming({
      argv: ["/bin/sh", "-c", "exit 153"],
      ...where(),
      ...streams(),
    });
    expect(failed).toMatchObject({ kind: "ran", exitCode: 153, limitsExceeded: [] });
  });

  it("hands further descriptors over as pipes: input bytes in, output streamed back", async () => {
    const io = streams();
    const back: Buffer[] = [];
    const outcome = await spawnStreaming({
      argv: ["/bin/sh", "-c", "cat <&5; echo back >&6"],
      ...where(),
      descriptors: new Map([
        [5, { input: Buffer.from("from five\n") }],
        [6, { output: (chunk: Buffer) => back.push(chunk) }],
      ]),
      ...io,
    });
    expect(outcome).toMatchObject({ kind: "ran", exitCode: 0 });
    expect(io.stdout()).toBe("from five\n");
    expect(Buffer.concat(back).toString()).toBe("back\n");
  });

  it("streams an async stdin with backpressure, and stops feeding once the child stops reading", async () => {
    const io = streams();
    let produced = 0;
    async function* endless() {
      const chunk = Buffer.alloc(64 * 1024, "y\n");
      for (;;) {
        produced += 1;
        yield chunk;
      }
    }
    const outcome = await spawnStreaming({
      argv: ["/usr/bin/head", "-c", "4"],
      ...where(),
      stdin: endless(),
      ...io,
    });
    expect(outcome).toMatchObject({ kind: "ran", exitCode: 0 });
    expect(io.stdout()).toBe("y\ny\n");
    // Backpressure: the producer was not drained into memory without bound.
    expect(produced).toBeLessThan(1000);
  });

  it("refuses a program outside the exec grant before anything runs", async () => {
    const marker = join(tempDir(), "ran");
    const audit = recordingAudit();
    const outcome = await spawnStreaming({
      argv: ["/usr/bin/touch", marker],
      ...where(),
      exec: only(["echo"]),
      audit,
      ...streams(),
    });
    expect(outcome.kind).toBe("denied");
    expect(existsSync(marker)).toBe(false);
    expect(audit.events).toContainEqual(
      expect.objectContaining({ type: "spawn", decision: "denied" }),
    );
  });

  it("on abort kills the whole tree, a setsid descendant included", async () => {
    const marker = join(tempDir(), "late");
    const controller = new AbortController();
    const run = spawnStreaming({
      argv: ["/bin/sh", "-c", `setsid sh -c 'sleep 1; echo late > ${marker}' & sleep 30`],
      ...where(),
      signal: controller.signal,
      ...streams(),
    });
    setTimeout(() => controller.abort(), 200);
    const outcome = await run;
    expect(outcome).toMatchObject({ kind: "ran", cancelled: true, signal: "SIGKILL" });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(marker)).toBe(false);
  });

  it("reports a missing program as not found", async () => {
    const outcome = await spawnStreaming({
      argv: ["no-such-program-here"],
      ...where(),
      ...streams(),
    });
    expect(outcome).toEqual({ kind: "not-found", program: "no-such-program-here" });
  });
});
