import { describe, expect, it } from "vitest";
import { percentile, summarize } from "../src/stats.js";

describe("percentile", () => {
  it.each([
    { values: [1, 2, 3, 4], p: 50, expected: 2.5 },
    { values: [1, 2, 3, 4, 5], p: 50, expected: 3 },
    { values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], p: 90, expected: 9.1 },
    { values: [10, 20], p: 25, expected: 12.5 },
    { values: [7], p: 90, expected: 7 },
    { values: [3, 1, 2], p: 0, expected: 1 },
    { values: [3, 1, 2], p: 100, expected: 3 },
  ])("p$p of $values is $expected", ({ values, p, expected }) => {
    expect(percentile(values, p)).toBeCloseTo(expected, 10);
  });

  it("sorts a copy and leaves the input alone", () => {
    const values = [5, 1, 4, 2, 3];
    expect(percentile(values, 50)).toBe(3);
    expect(values).toEqual([5, 1, 4, 2, 3]);
  });

  it("refuses an empty list and a percentile outside 0..100", () => {
    expect(() => percentile([], 50)).toThrow(RangeError);
    expect(() => percentile([1], -1)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });

  it("summarizes as p50 and p90", () => {
    expect(summarize([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toEqual({ p50: 5.5, p90: 9.1 });
  });
});
