import { createOutputSession } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { runThroughFunnel } from "./helpers/run.js";

describe("output capture", () => {
  it("keeps exactly the cap and sets the flag, per stream", async () => {
    const result = await runThroughFunnel(
      [["sh", "-c", "printf 0123456789abcdef; printf ABCDEFGH >&2"]],
      { maxOutputBytes: 8 },
    );
    expect(result.stdout.toString()).toBe("01234567");
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stderr.toString()).toBe("ABCDEFGH");
    expect(result.stderrTruncated).toBe(false);
  });

  it("drains a 200 MiB producer to EOF with a 1 MiB cap and bounded memory", async () => {
    global.gc?.();
    const before = process.memoryUsage();
    const result = await runThroughFunnel([["head", "-c", "200M", "/dev/zero"]], {
      maxOutputBytes: 1 << 20,
      timeoutMs: 15_000,
    });
    const after = process.memoryUsage();
    expect(result.exitCode).toBe(0);
    expect(result.signal).toBe(null);
    expect(result.stdout.length).toBe(1 << 20);
    expect(result.stdoutTruncated).toBe(true);
    const mib = 1 << 20;
    expect((after.rss - before.rss) / mib).toBeLessThan(64);
    expect((after.arrayBuffers - before.arrayBuffers) / mib).toBeLessThan(64);
  });

  it("feeds a live observer the same bytes it captures", async () => {
    const chunks: Buffer[] = [];
    let finished = false;
    const result = await runThroughFunnel([["sh", "-c", "echo one; echo two >&2; echo three"]], {
      observer: {
        onOutput: (_id, stream, chunk) => {
          if (stream === "stdout") chunks.push(Buffer.from(chunk));
        },
        onFinish: () => {
          finished = true;
        },
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Buffer.concat(chunks).toString()).toBe(result.stdout.toString());
    expect(result.stdout.toString()).toBe("one\nthree\n");
    expect(finished).toBe(true);
    void createOutputSession;
  });
});
