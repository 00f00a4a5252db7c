#!/usr/bin/env node
// `node tools/boundaries/dist/cli.js [--update-surface] [--shrink-exceptions] [root]`:
// prints every boundary and guardrail violation and exits 1, or prints a summary and exits
// 0. The root defaults to the workspace this file is built in. `--update-surface` rewrites
// the packages' public-surface.txt snapshots first; `--shrink-exceptions` removes stale
// entries of the guardrails' allow-list and lowers its ceilings first (ADR 0026).
import { fileURLToPath } from "node:url";
import { type BoundaryReport, scanBoundaries } from "./check-boundaries.js";
import { formatViolation } from "./format-violation.js";
import { type GuardrailReport, scanGuardrails } from "./guardrails/scan-guardrails.js";

const options = process.argv.slice(2).filter((value) => value !== "--");
const updateSurface = options.includes("--update-surface");
const shrinkExceptions = options.includes("--shrink-exceptions");
const argument = options.find((value) => !value.startsWith("--"));
const root = argument ?? fileURLToPath(new URL("../../../", import.meta.url));
const report = await scanBoundaries(root);
const guardrails = await scanGuardrails(root, { updateSurface, shrinkExceptions });
const violations = [...report.violations, ...guardrails.violations];

if (violations.length > 0) {
  for (const violation of violations) console.error(formatViolation(violation));
  console.error(`boundaries: ${violations.length} violation(s)`);
  process.exitCode = 1;
} else {
  printBoundaries(report);
  printGuardrails(guardrails);
}

function printBoundaries(boundaries: BoundaryReport): void {
  console.log(
    `boundaries OK: ${boundaries.packages} packages and ${boundaries.tools} tools, ` +
      `${boundaries.files} files, ${boundaries.references} module specifiers checked`,
  );
  // ADR 0022: the bash language (parser, patterns, globbing) is written once.
  const exceptions = boundaries.languageExceptions;
  console.log(
    `bash language: one parser, in packages/bash; ${exceptions.length} listed exception(s)` +
      exceptions.map((item) => `\n  ${item.file}: ${item.reason}`).join(""),
  );
}

function printGuardrails(shape: GuardrailReport): void {
  const written = shape.surfacesWritten > 0 ? ` (${shape.surfacesWritten} rewritten)` : "";
  if (shape.exceptionsShrunk > 0) {
    console.log(`guardrails: ${shape.exceptionsShrunk} allow-list entries removed or lowered`);
  }
  console.log(
    `guardrails OK (ADR 0026): ${shape.files} files, ${shape.filesOver} over 500 lines ` +
      `(${shape.listed.files} listed); ${shape.functions} functions, ` +
      `${shape.functionsOver} over 80 lines (${shape.listed.functions} listed); ` +
      `${shape.surfacesPinned} public surfaces pinned${written}; ` +
      `${shape.mutableFields} public mutable interpreter field(s) (${shape.listed.fields} listed)`,
  );
}
