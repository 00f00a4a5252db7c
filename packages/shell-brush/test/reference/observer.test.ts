import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { only, RunEnvelopeSchema, type ShellInvocationId } from "@agent-bridle/core";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { brush, recordingObserver, settle, sleep } from "./helpers.js";

const tempDir = useTempDirs("brush-ref-observer-");

describe("the bash engine's live output observer (reference cases 67–71)", () => {
  it("67: observed stdout equals the envelope, stderr empty, one onFinish; pre-spawn denials notify nobody", async () => {
    const seen = recordingObserver();
    const { run, dispatch } = brush({ observer: seen.observer });
    const envelope = await run({ cmd: "echo observed", cwd: tempDir() });
    await settle();
    expect(envelope.stdout).toBe("observed\n");
    expect(seen.text("stdout")).toBe("observed\n");
    expect(seen.text("stderr")).toBe("");
    expect(seen.finished).toHaveLength(1);

    // Refused before any worker starts: a cwd outside fs_read, and a restricted fs grant
    // below the default floor (no kernel backend here). Neither is an observed invocation.
    const before = seen.output.length;
    const dir = tempDir();
    const marker = join(dir, "ran");
    const outside = await dispatch(
      { cmd: `echo x > ${marker}`, cwd: dir },
      { fs_read: only([join(dir, "elsewhere")]) },
    );
    expect(outside).toMatchObject({ denied: true });
    const floor = await dispatch(
      { cmd: `echo x > ${marker}`, cwd: dir },
      { fs_write: only([dir]) },
    );
    expect(floor).toMatchObject({ denied: true });
    await settle();
    expect(seen.output.length).toBe(before);
    expect(seen.finished).toHaveLength(1);
    expect(existsSync(marker)).toBe(false);
  });

  it("68: with a 4-byte cap, echo long-output is observed as `long`; the envelope agrees and flags it", async () => {
    const seen = recordingObserver();
    const { run } = brush({ observer: seen.observer, maxOutputBytes: 4 });
    const envelope = await run({ cmd: "echo long-output", cwd: tempDir() });
    await settle();
    expect(seen.text("stdout")).toBe("long");
    expect(envelope).toMatchObject({ stdout: "long", stdout_truncated: true, exit_code: 0 });
  });

  it("69: a throwing observer does not change the result", async () => {
    const seen = recordingObserver({ throwing: true });
    const { run } = brush({ observer: seen.observer });
    const envelope = await run({ cmd: "echo still-runs", cwd: tempDir() });
    expect(envelope).toMatchObject({ exit_code: 0, stdout: "still-runs\n", timed_out: false });
    await settle();
    // The throw cancelled observation of that invocation: no onFinish.
    expect(seen.finished).toHaveLength(0);
  });

  it("70: two concurrent dispatches get distinct invocation ids and their own output", async () => {
    const seen = recordingObserver();
    const { run } = brush({ observer: seen.observer });
    const [alpha, beta] = await Promise.all([
      run({ cmd: "echo alpha", cwd: tempDir() }),
      run({ cmd: "echo beta", cwd: tempDir() }),
    ]);
    expect([alpha.stdout, beta.stdout]).toEqual(["alpha\n", "beta\n"]);
    await settle();
    expect(seen.finished).toHaveLength(2);
    const [first, second] = seen.finished as [ShellInvocationId, ShellInvocationId];
    expect(first).not.toBe(second);
    expect([seen.text("stdout", first), seen.text("stdout", second)].sort()).toEqual([
      "alpha\n",
      "beta\n",
    ]);
  });

  it("71: output is observed before the call completes (the script waits on a gate the test opens)", async () => {
    const dir = tempDir();
    const gate = join(dir, "go");
    const seen = recordingObserver();
    const { run } = brush({ observer: seen.observer });
    let completed = false;
    const call = run({
      cmd: `echo early; while [ ! -e ${gate} ]; do sleep 0.05; done; echo late`,
      cwd: dir,
    }).finally(() => {
      completed = true;
    });
    await seen.waitFor("stdout", "early\n");
    expect(completed).toBe(false);
    expect(seen.text("stdout")).toBe("early\n");
    writeFileSync(gate, "");
    const envelope = await call;
    expect(envelope.stdout).toBe("early\nlate\n");
  });

  it("71: a blocked observer does not delay the timeout; after a timeout onFinish is never called", async () => {
    const seen = recordingObserver({ blocked: true });
    const { run } = brush({ observer: seen.observer });
    const started = performance.now();
    const envelope = await run({
      cmd: "echo first; echo second; sleep 30",
      timeout_secs: 1,
      cwd: tempDir(),
    });
    // Liveness bound only: the 30 s sleep must not be waited for.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(envelope).toMatchObject({ timed_out: true, exit_code: 124 });
    expect(envelope.stdout).toBe("first\nsecond\n");
    await settle();
    expect(seen.finished).toHaveLength(0);
  });

  it("71: a blocked observer does not delay cancellation; a cancelled call never finishes observation", async () => {
    const dir = tempDir();
    const marker = join(dir, "after-cancel");
    const seen = recordingObserver({ blocked: true });
    const { dispatch } = brush({ observer: seen.observer });
    const controller = new AbortController();
    const started = performance.now();
    const call = dispatch(
      { cmd: `echo first; echo second; sleep 3; echo late > ${marker}`, cwd: dir },
      {},
      controller.signal,
    );
    await seen.waitFor("stdout", "first\n");
    controller.abort();
    const envelope = RunEnvelopeSchema.parse(await call);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(envelope).toMatchObject({ exit_code: 124, timed_out: false });
    await sleep(3500);
    expect(existsSync(marker)).toBe(false);
    expect(seen.finished).toHaveLength(0);
  });
});
