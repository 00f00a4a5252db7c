import { describe, expect, it } from "vitest";
import type { Benchmark } from "../src/benchmark.js";
import { formatDuration } from "../src/format-duration.js";
import { toJsonLine } from "../src/format-json.js";
import { formatTable } from "../src/format-table.js";
import type { MetricResult, RatioResult } from "../src/result.js";

const ratio: RatioResult = {
  kind: "ratio",
  name: "dispatch-overhead",
  subject: { p50: 0.0023456789, p90: 0.0031 },
  baseline: { p50: 0.0002, p90: 0.00025 },
  ratio: 11.7283945,
  target: 251,
  targetLabel: "baseline + 50.00 µs per call",
  samples: 40,
  subjectIterations: 2000,
  baselineIterations: 25000,
  passed: true,
};

const metric: MetricResult = {
  kind: "metric",
  name: "heap-growth",
  metric: "heap_growth",
  value: 4.56789,
  unit: "MiB",
  limit: 16,
  passed: true,
};

describe("JSON bench lines (spec README §14)", () => {
  it("prints a time ratio as {name, subject_p50_ms, baseline_p50_ms, ratio, target}", () => {
    const line = toJsonLine(ratio);
    expect(line).not.toContain("\n");
    expect(Object.keys(JSON.parse(line))).toEqual([
      "name",
      "subject_p50_ms",
      "baseline_p50_ms",
      "ratio",
      "target",
    ]);
    expect(JSON.parse(line)).toEqual({
      name: "dispatch-overhead",
      subject_p50_ms: 0.002346,
      baseline_p50_ms: 0.0002,
      ratio: 11.73,
      target: 251,
    });
  });

  it("prints another figure as {name, metric, value, unit, limit}", () => {
    const line = toJsonLine(metric);
    expect(Object.keys(JSON.parse(line))).toEqual(["name", "metric", "value", "unit", "limit"]);
    expect(JSON.parse(line)).toEqual({
      name: "heap-growth",
      metric: "heap_growth",
      value: 4.568,
      unit: "MiB",
      limit: 16,
    });
  });

  it("prints a non-finite figure as null", () => {
    const line = toJsonLine({ ...ratio, ratio: Number.POSITIVE_INFINITY });
    expect(JSON.parse(line)).toMatchObject({ ratio: null });
  });
});

describe("the readable table", () => {
  const benchmarks: Benchmark[] = [
    {
      kind: "ratio",
      name: "dispatch-overhead",
      description: "dispatch vs direct call",
      grant: "top()",
      mode: "in-process",
      target: { allowanceMs: 0.05 },
      subject: () => undefined,
      baseline: () => undefined,
    },
  ];

  it("shows p50 and p90 of both sides, the ratio and the target", () => {
    const table = formatTable([ratio, { ...metric, passed: false }], benchmarks);
    const [header, row] = table.split("\n");
    expect(header).toMatch(/^benchmark +subject p50 +p90 +baseline p50 +p90 +ratio +target$/);
    expect(row).toMatch(
      /^dispatch-overhead +2\.346 µs +3\.100 µs +200\.0 ns +250\.0 ns +11\.73 +≤ 251\.0 \(baseline \+ 50\.00 µs per call\) +ok$/,
    );
    expect(table).toMatch(/heap-growth +heap_growth +4\.56789 MiB +≤ 16 MiB +OVER TARGET/);
    expect(table).toContain("dispatch-overhead: dispatch vs direct call [grant top(); in-process]");
  });

  it.each([
    [0.000_012_34, "12.34 ns"],
    [0.0456, "45.60 µs"],
    [1.5, "1.500 ms"],
    [2500, "2.500 s"],
  ])("formats %f ms as %s", (milliseconds, text) => {
    expect(formatDuration(milliseconds)).toBe(text);
  });
});
