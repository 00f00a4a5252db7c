import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countNewlines } from "../src/wc/wc-counter.js";

const naive = (bytes: Uint8Array) =>
  bytes.reduce((count, byte) => count + (byte === 0x0a ? 1 : 0), 0);

describe("countNewlines (the word-at-a-time fast path of wc -l)", () => {
  it("equals a byte loop for any bytes at any alignment, including chunks shorter than a word", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 80 }),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 0, max: 7 }),
        (bytes, before, after) => {
          const backing = new Uint8Array(before + bytes.length + after).fill(0x0a);
          backing.set(bytes, before);
          const chunk = backing.subarray(before, before + bytes.length);
          expect(countNewlines(chunk)).toBe(naive(chunk));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("counts lanes holding 0x0a only, not bytes that merely share bits with it (0x8a, 0x0b, 0x00)", () => {
    const chunk = new Uint8Array([
      0x8a, 0x0a, 0x0b, 0x00, 0x0a, 0x0a, 0x0a, 0x0a, 0x1a, 0x2a, 0x0a, 0xff,
    ]);
    expect(countNewlines(chunk)).toBe(naive(chunk));
  });
});
