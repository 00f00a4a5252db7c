/** Per-file and total scoring lines, failing names and skips by reason. */
import type { CaseResult } from "./runner.js";

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

function tally(results: readonly CaseResult[]): Tally {
  const counts: Tally = { passed: 0, failed: 0, skipped: 0 };
  for (const result of results) counts[result.outcome.status] += 1;
  return counts;
}

/** The report's lines; the last is `bash-compat: <P> passed, <F> failed, <S> skipped`. */
export function formatReport(results: readonly CaseResult[], verbose: boolean): string[] {
  const lines: string[] = [];
  const byFile = new Map<string, CaseResult[]>();
  for (const result of results)
    byFile.set(result.file, [...(byFile.get(result.file) ?? []), result]);
  for (const [file, fileResults] of byFile) {
    const counts = tally(fileResults);
    lines.push(
      `${file}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
    );
    for (const result of fileResults) {
      if (result.outcome.status === "failed") {
        lines.push(
          `  FAIL ${result.name}${verbose ? ` (${result.outcome.differences.join(", ")})` : ""}`,
        );
      }
    }
  }
  const reasons = new Map<string, number>();
  for (const result of results) {
    if (result.outcome.status === "skipped")
      reasons.set(result.outcome.reason, (reasons.get(result.outcome.reason) ?? 0) + 1);
  }
  if (reasons.size > 0) lines.push("skipped by reason:");
  for (const [reason, count] of [...reasons].sort((left, right) => right[1] - left[1]))
    lines.push(`  ${count} ${reason}`);
  const total = tally(results);
  const scored = total.passed + total.failed;
  const rate = scored === 0 ? 0 : (100 * total.passed) / scored;
  lines.push(`pass rate: ${rate.toFixed(1)}% of ${scored} scored cases`);
  lines.push(
    `bash-compat: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`,
  );
  return lines;
}
