#!/usr/bin/env node
// `node tools/bench/dist/cli.js [--json] [name…]`: runs the named benchmarks (all by
// default) and prints a table, or one JSON line per benchmark with --json. Exit 0 when
// every target holds, 1 when one is missed, 2 for a usage error or an unknown name.
import { ALL_BENCHMARKS } from "./all-benchmarks.js";
import { parseArguments } from "./cli-arguments.js";
import { toJsonLine } from "./format-json.js";
import { formatTable } from "./format-table.js";
import type { BenchmarkResult } from "./result.js";
import { runBenchmark } from "./run-benchmark.js";

const USAGE = "usage: node tools/bench/dist/cli.js [--json] [benchmark…]";
const available = ALL_BENCHMARKS.map(
  (benchmark) => `  ${benchmark.name}  ${benchmark.description}`,
);

function fail(message: string): void {
  console.error([message, USAGE, "benchmarks:", ...available].join("\n"));
  process.exitCode = 2;
}

async function main(): Promise<void> {
  const parsed = parseArguments(process.argv.slice(2));
  if (!parsed.ok) return fail(parsed.error);
  if (parsed.value.help) {
    console.log([USAGE, "benchmarks:", ...available].join("\n"));
    return;
  }
  const unknown = parsed.value.names.filter(
    (name) => !ALL_BENCHMARKS.some((benchmark) => benchmark.name === name),
  );
  if (unknown.length > 0) return fail(`unknown benchmark: ${unknown.join(", ")}`);
  const selected = ALL_BENCHMARKS.filter(
    (benchmark) => parsed.value.names.length === 0 || parsed.value.names.includes(benchmark.name),
  );
  const results: BenchmarkResult[] = [];
  for (const benchmark of selected) {
    const result = await runBenchmark(benchmark);
    results.push(result);
    if (parsed.value.json) console.log(toJsonLine(result));
  }
  if (!parsed.value.json) console.log(formatTable(results, selected));
  if (results.some((result) => !result.passed)) process.exitCode = 1;
}

await main();
