import { describe, expect, it } from "vitest";
import { runUtility } from "./helpers/run-utility.js";
import { createTestOpener } from "./helpers/test-opener.js";

const MIB = 1024 * 1024;
const TOTAL_MIB = 500;

/** 500 MiB of lines from a generator, one reused 1 MiB chunk at a time; tracks peak rss. */
function largeStream(peak: { rss: number }): AsyncIterable<Uint8Array> {
  const chunk = Buffer.alloc(MIB, "streaming line of text\n");
  return {
    async *[Symbol.asyncIterator]() {
      for (let index = 0; index < TOTAL_MIB; index += 1) {
        if (index % 16 === 0) peak.rss = Math.max(peak.rss, process.memoryUsage().rss);
        yield chunk;
      }
    },
  };
}

async function measure(name: "cat" | "wc" | "head", argv: string[]) {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const peak = { rss: before };
  let written = 0;
  const outcome = await runUtility(name, argv, {
    cwd: "/",
    opener: createTestOpener({ root: "/nonexistent-root" }),
    stdin: largeStream(peak),
  });
  written = outcome.stdout.length;
  return { outcome, growthMiB: (peak.rss - before) / MIB, written };
}

// A generous bound: 500 MiB flows through; constant-memory streaming keeps rss growth to
// a few buffers, far below the input size.
const BOUND_MIB = 128;

describe("streaming keeps memory constant over a 500 MiB input", () => {
  it("wc -lc counts it all with bounded rss growth", async () => {
    const { outcome, growthMiB } = await measure("wc", ["-lcL"]);
    const linesPerChunk = Buffer.alloc(MIB, "streaming line of text\n").filter(
      (byte) => byte === 10,
    ).length;
    const lines = String(linesPerChunk * TOTAL_MIB).padStart(7);
    // 1 MiB is not a multiple of the 23-byte line: a 6-byte tail joins the next chunk's first line (28).
    expect(outcome.stdout.toString()).toBe(`${lines} ${TOTAL_MIB * MIB}      28\n`);
    expect(growthMiB).toBeLessThan(BOUND_MIB);
  }, 120_000);

  it("head -c -3 withholds only the tail with bounded rss growth", async () => {
    let bytes = 0;
    const peak = { rss: process.memoryUsage().rss };
    const before = peak.rss;
    const { UTILITIES } = await import("../src/index.js");
    const status = await UTILITIES.head({
      argv: ["-c", "-3"],
      stdin: largeStream(peak),
      stdout: {
        write: (chunk) => {
          bytes += chunk.length;
        },
      },
      stderr: { write: () => undefined },
      cwd: "/",
      env: {},
      opener: createTestOpener({ root: "/nonexistent-root" }),
      onDenial: () => undefined,
    });
    expect(status).toBe(0);
    expect(bytes).toBe(TOTAL_MIB * MIB - 3);
    expect((peak.rss - before) / MIB).toBeLessThan(BOUND_MIB);
  }, 120_000);

  it("cat copies it all to a counting sink with bounded rss growth", async () => {
    let bytes = 0;
    const peak = { rss: process.memoryUsage().rss };
    const before = peak.rss;
    const { UTILITIES } = await import("../src/index.js");
    const status = await UTILITIES.cat({
      argv: ["-"],
      stdin: largeStream(peak),
      stdout: {
        write: async (chunk) => {
          bytes += chunk.length;
          await new Promise((resolve) => setImmediate(resolve));
        },
      },
      stderr: { write: () => undefined },
      cwd: "/",
      env: {},
      opener: createTestOpener({ root: "/nonexistent-root" }),
      onDenial: () => undefined,
    });
    expect(status).toBe(0);
    expect(bytes).toBe(TOTAL_MIB * MIB);
    expect((peak.rss - before) / MIB).toBeLessThan(BOUND_MIB);
  }, 120_000);
});
