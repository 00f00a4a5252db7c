#!/usr/bin/env node
// `node tools/boundaries/dist/cli.js [workspace-root]`: prints every boundary violation
// and exits 1, or prints a one-line summary and exits 0. The root defaults to the
// workspace this file is built in.
import { fileURLToPath } from "node:url";
import { scanBoundaries } from "./check-boundaries.js";
import { formatViolation } from "./format-violation.js";

const argument = process.argv.slice(2).find((value) => value !== "--");
const root = argument ?? fileURLToPath(new URL("../../../", import.meta.url));
const report = await scanBoundaries(root);

if (report.violations.length > 0) {
  for (const violation of report.violations) console.error(formatViolation(violation));
  console.error(`boundaries: ${report.violations.length} violation(s)`);
  process.exitCode = 1;
} else {
  console.log(
    `boundaries OK: ${report.packages} packages and ${report.tools} tools, ` +
      `${report.files} files, ${report.references} module specifiers checked`,
  );
  // ADR 0022: the bash language (parser, patterns, globbing) is written once.
  const exceptions = report.languageExceptions;
  console.log(
    `bash language: one parser, in packages/bash; ${exceptions.length} listed exception(s)` +
      exceptions.map((item) => `\n  ${item.file}: ${item.reason}`).join(""),
  );
}
