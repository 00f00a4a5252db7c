import type { ShellInvocationId, ShellOutputStream } from "@agent-bridle/core";
import { only } from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { describe, expect, it } from "vitest";
import { createShellTool } from "../../src/index.js";
import { asDenied, asRun, HOME, registryWith, useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();

interface Seen {
  readonly output: { id: ShellInvocationId; stream: ShellOutputStream; text: string }[];
  readonly finished: ShellInvocationId[];
}

function observed(options: { maxOutputBytes?: number; throwing?: boolean } = {}) {
  const seen: Seen = { output: [], finished: [] };
  const tool = createShellTool({
    home: HOME,
    tmpdir: "/tmp",
    baseDir: tempDir(),
    backend: NONE_BACKEND,
    ...(options.maxOutputBytes ? { limits: { maxOutputBytes: options.maxOutputBytes } } : {}),
    observer: {
      onOutput(id, stream, chunk) {
        if (options.throwing) throw new Error("observer bug");
        seen.output.push({ id, stream, text: Buffer.from(chunk).toString("utf8") });
      },
      onFinish(id) {
        seen.finished.push(id);
      },
    },
  });
  return { seen, ...registryWith(tool) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
const textOf = (seen: Seen, stream: ShellOutputStream, id?: ShellInvocationId) =>
  seen.output
    .filter((event) => event.stream === stream && (id === undefined || event.id === id))
    .map((event) => event.text)
    .join("");

describe("shell-safe: live output observer (cases 67–71)", () => {
  it("67: observed stdout equals the envelope, one onFinish (also over several pipelines); a pre-spawn denial notifies nobody", async () => {
    const { seen, dispatch } = observed();
    const envelope = asRun(await dispatch({ cmd: "echo observed; echo twice" }));
    await settle();
    expect(textOf(seen, "stdout")).toBe("observed\ntwice\n");
    expect(envelope.stdout).toBe("observed\ntwice\n");
    expect(textOf(seen, "stderr")).toBe("");
    expect(seen.finished).toHaveLength(1);
    const before = seen.output.length;
    asDenied(await dispatch({ cmd: "rm x" }, { exec: only(["echo"]) }));
    await settle();
    expect(seen.output.length).toBe(before);
    expect(seen.finished).toHaveLength(1);
  });

  it("68: cap 4: echo long-output is observed as long, envelope long + flag", async () => {
    const { seen, dispatch } = observed({ maxOutputBytes: 4 });
    const envelope = asRun(await dispatch({ cmd: "echo long-output" }));
    await settle();
    expect(textOf(seen, "stdout")).toBe("long");
    expect(envelope).toMatchObject({ stdout: "long", stdout_truncated: true });
  });

  it("69: a throwing observer does not change the result", async () => {
    const { dispatch } = observed({ throwing: true });
    expect(asRun(await dispatch({ cmd: "echo still-runs" }))).toMatchObject({
      exit_code: 0,
      stdout: "still-runs\n",
    });
  });

  it("70: two concurrent dispatches get distinct ids and their own output", async () => {
    const { seen, dispatch } = observed();
    await Promise.all([dispatch({ cmd: "echo alpha" }), dispatch({ cmd: "echo beta" })]);
    await settle();
    expect(seen.finished).toHaveLength(2);
    const [first, second] = seen.finished as [ShellInvocationId, ShellInvocationId];
    expect(first).not.toBe(second);
    expect([textOf(seen, "stdout", first), textOf(seen, "stdout", second)].sort()).toEqual([
      "alpha\n",
      "beta\n",
    ]);
  });

  it("71: output is observed before the call completes; after a timeout onFinish never runs", async () => {
    const { seen, dispatch } = observed();
    const call = dispatch({ cmd: "echo early; sleep 5", timeout_secs: 0.6 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(textOf(seen, "stdout")).toBe("early\n");
    const envelope = asRun(await call);
    await settle();
    expect(envelope.timed_out).toBe(true);
    expect(seen.finished).toHaveLength(0);
  });
});
