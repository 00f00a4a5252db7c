/** Comparison of an engine result with the oracle (or the case's inline expectations). */
import type { CaseRun } from "./case-run.js";
import type { EngineResult } from "./engine.js";

export interface Observed extends EngineResult {
  readonly files: Readonly<Record<string, string>>;
}

function normaliseWhitespace(text: string): string {
  return text
    .split(/\s+/)
    .filter((piece) => piece !== "")
    .join(" ");
}

/** Why the engine's run differs from the expected one; empty when it passes. */
export function compareRuns(run: CaseRun, expected: Observed, actual: Observed): string[] {
  const item = run.source;
  const differences: string[] = [];
  const same = (left: string, right: string): boolean =>
    item.ignoreWhitespace
      ? normaliseWhitespace(left) === normaliseWhitespace(right)
      : left === right;
  const wantStdout = item.expectedStdout ?? expected.stdout;
  if (!item.ignoreStdout && !same(wantStdout, actual.stdout)) differences.push("stdout");
  if (!item.ignoreStderr && !same(expected.stderr, actual.stderr)) differences.push("stderr");
  const wantExit = item.expectedExitCode ?? expected.exitCode;
  if (!item.ignoreExitStatus && wantExit !== actual.exitCode) {
    differences.push(`exit status ${actual.exitCode} (want ${wantExit})`);
  }
  if (JSON.stringify(expected.files) !== JSON.stringify(actual.files))
    differences.push("directory contents");
  return differences;
}
