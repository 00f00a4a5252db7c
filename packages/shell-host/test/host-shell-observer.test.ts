import type { ShellInvocationId, ShellOutputStream } from "@agent-bridle/core";
import { only, RunEnvelopeSchema } from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { describe, expect, it } from "vitest";
import { createHostShellTool } from "../src/host-shell-tool.js";
import { registryWith, useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();

interface Seen {
  readonly output: { id: ShellInvocationId; stream: ShellOutputStream; text: string }[];
  readonly finished: ShellInvocationId[];
}

function observed(maxOutputBytes?: number, throwing = false) {
  const seen: Seen = { output: [], finished: [] };
  const tool = createHostShellTool({
    home: "/nonexistent-home",
    tmpdir: "/tmp",
    baseDir: tempDir(),
    backend: NONE_BACKEND,
    ...(maxOutputBytes ? { limits: { maxOutputBytes } } : {}),
    observer: {
      onOutput(id, stream, chunk) {
        if (throwing) throw new Error("observer bug");
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
const textOf = (seen: Seen, stream: ShellOutputStream) =>
  seen.output
    .filter((event) => event.stream === stream)
    .map((event) => event.text)
    .join("");

describe("host shell: live output observer (cases 67–71, 73)", () => {
  it("67: observed stdout equals the envelope, one onFinish; a pre-spawn denial notifies nobody", async () => {
    const { seen, dispatch } = observed();
    const envelope = RunEnvelopeSchema.parse(await dispatch({ cmd: "echo observed" }));
    await settle();
    expect(textOf(seen, "stdout")).toBe("observed\n");
    expect(textOf(seen, "stderr")).toBe("");
    expect(envelope.stdout).toBe("observed\n");
    expect(seen.finished).toHaveLength(1);
    await dispatch({ cmd: "echo never" }, { net: only([]) });
    await settle();
    expect(seen.output).toHaveLength(1);
    expect(seen.finished).toHaveLength(1);
  });

  it("68: with a 4-byte cap, 'long-output' is observed as 'long' and the envelope agrees, flagged", async () => {
    const { seen, dispatch } = observed(4);
    const envelope = RunEnvelopeSchema.parse(await dispatch({ cmd: "echo long-output" }));
    await settle();
    expect(textOf(seen, "stdout")).toBe("long");
    expect(envelope).toMatchObject({ stdout: "long", stdout_truncated: true });
  });

  it("69: a throwing observer does not change the result", async () => {
    const { dispatch } = observed(undefined, true);
    const envelope = RunEnvelopeSchema.parse(await dispatch({ cmd: "echo still-runs" }));
    expect(envelope).toMatchObject({ exit_code: 0, stdout: "still-runs\n" });
  });

  it("70: two concurrent dispatches get distinct ids and their own output", async () => {
    const { seen, dispatch } = observed();
    await Promise.all([dispatch({ cmd: "echo alpha" }), dispatch({ cmd: "echo beta" })]);
    await settle();
    const ids = [...new Set(seen.output.map((event) => event.id))];
    expect(ids).toHaveLength(2);
    const byId = ids.map((id) =>
      seen.output
        .filter((event) => event.id === id)
        .map((event) => event.text)
        .join(""),
    );
    expect(byId.sort()).toEqual(["alpha\n", "beta\n"]);
  });

  it("71 (timeout): output is observed before the call ends; after a timeout onFinish is never called", async () => {
    const { seen, dispatch } = observed();
    const envelope = RunEnvelopeSchema.parse(
      await dispatch({ cmd: "echo early; sleep 30", timeout_secs: 1 }),
    );
    await settle();
    expect(envelope).toMatchObject({ timed_out: true, exit_code: 124 });
    expect(textOf(seen, "stdout")).toBe("early\n");
    expect(seen.finished).toHaveLength(0);
  });

  it("73: stdout and stderr agree with the envelope; a 64 KiB+4 stderr flood is observed as exactly 64 KiB", async () => {
    const { seen, dispatch } = observed(65536);
    const small = RunEnvelopeSchema.parse(
      await dispatch({ cmd: "printf host-out; printf host-err >&2" }),
    );
    await settle();
    expect([textOf(seen, "stdout"), textOf(seen, "stderr")]).toEqual([small.stdout, small.stderr]);
    expect([small.stdout, small.stderr]).toEqual(["host-out", "host-err"]);
    seen.output.length = 0;
    const flood = RunEnvelopeSchema.parse(
      await dispatch({ cmd: "head -c 65540 /dev/zero | tr '\\0' e >&2" }),
    );
    await settle();
    expect(textOf(seen, "stderr")).toHaveLength(65536);
    expect(flood).toMatchObject({ stderr: "e".repeat(65536), stderr_truncated: true });
  });
});
