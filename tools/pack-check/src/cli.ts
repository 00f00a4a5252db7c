#!/usr/bin/env node
import { fileURLToPath } from "node:url";
import { packCheck, repoRootFrom } from "./pack-check.js";

// pack-check [--no-build] [--keep]: prints a line per package, then the failures; exit 1 on any.
const args = new Set(process.argv.slice(2));
try {
  const report = await packCheck({
    repoRoot: await repoRootFrom(fileURLToPath(new URL(".", import.meta.url))),
    build: !args.has("--no-build"),
    keep: args.has("--keep"),
    log: (line) => console.log(`pack-check: ${line}`),
  });
  for (const failure of report.failures) console.error(`pack-check: FAIL ${failure}`);
  if (args.has("--keep")) console.log(`pack-check: kept ${report.workDir}`);
  console.log(
    `pack-check: ${report.packages.length} packages packed, installed and loaded; ${report.failures.length} failure(s)`,
  );
  process.exitCode = report.failures.length === 0 ? 0 : 1;
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
