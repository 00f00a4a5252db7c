import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runThroughFunnel } from "./helpers/run.js";

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.splice(0)) step();
});
function scratch() {
  const dir = mkdtempSync(join(tmpdir(), "bridle-stdio-"));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
function openFile(path: string, flags: string) {
  const fd = openSync(path, flags);
  cleanup.push(() => closeSync(fd));
  return fd;
}

describe("per-stage stdio (stageStdio): descriptors placed on 0/1/2, no shell", () => {
  it("stderr 'stdout' on the last stage merges both streams in write order into the captured stdout", async () => {
    const result = await runThroughFunnel([["sh", "-c", "echo one; echo two >&2; echo three"]], {
      stageStdio: [{ stderr: "stdout" }],
    });
    expect(result.stdout.toString()).toBe("one\ntwo\nthree\n");
    expect(result.stderr.toString()).toBe("");
  });

  it("stderr 'stdout' on a middle stage feeds the next stage; stdout to a file leaves nothing captured", async () => {
    const dir = scratch();
    const out = openFile(join(dir, "out"), "w");
    const result = await runThroughFunnel([["sh", "-c", "echo err >&2"], ["cat"], ["wc", "-l"]], {
      stageStdio: [{ stderr: "stdout" }, undefined, { stdout: out }],
    });
    expect(result.stdout.toString()).toBe("");
    expect(readFileSync(join(dir, "out"), "utf8").trim()).toBe("1");
  });

  it("stdin from a file on a later stage: the previous stage's output goes nowhere (EOF for nobody)", async () => {
    const dir = scratch();
    const input = join(dir, "in");
    writeFileSync(input, "");
    const read = openFile(input, "r");
    const result = await runThroughFunnel([["echo", "piped"], ["cat"]], {
      stageStdio: [undefined, { stdin: read }],
    });
    expect(result.stdout.toString()).toBe("");
    expect(result.exitCode).toBe(0);
  });

  it("stdout 'closed': a writer into a pipe nobody reads stops (EPIPE/SIGPIPE) instead of running on", async () => {
    const result = await runThroughFunnel([["yes"], ["echo", "after"]], {
      stageStdio: [{ stdout: "closed" }],
      timeoutMs: 20_000,
    });
    expect(result).toMatchObject({ timedOut: false, exitCode: 0 });
    expect(result.stdout.toString()).toBe("after\n");
  });

  it("per-stage extra descriptors: only the stage that names one sees it as 3; others get /dev/null there", async () => {
    const dir = scratch();
    const secret = join(dir, "secret");
    writeFileSync(secret, "");
    const fd = openFile(secret, "r");
    const result = await runThroughFunnel(
      [
        ["sh", "-c", "readlink /proc/self/fd/3 >&2; cat"],
        ["sh", "-c", "readlink /proc/self/fd/3"],
      ],
      { stageStdio: [{ extraDescriptors: [fd] }, undefined] },
    );
    expect(result.stderr.toString().trim()).toBe(secret);
    expect(result.stdout.toString().trim()).toBe("/dev/null");
  });
});
