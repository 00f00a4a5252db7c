import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadCorpus } from "../src/corpus.js";
import { checkParseAgreement } from "../src/parse-agreement.js";

const corpus = fileURLToPath(new URL("../corpus/cases", import.meta.url));

/**
 * Known, explained disagreements with `bash -n`: `coproc` is refused by design, and
 * `bash -n` does not execute the script's own `shopt -s extglob`, so it rejects extglob
 * patterns that real bash accepts when it runs the script line by line.
 */
function explained(script: string, weAccept: boolean): boolean {
  if (!weAccept) return /\bcoproc\b/.test(script);
  return script.includes("extglob");
}

describe("parser vs bash -n on the bash-compat corpus", () => {
  it("agrees on at least 98% of the scripts, and every disagreement is explained", async () => {
    const report = await checkParseAgreement(loadCorpus(corpus));
    expect(report.total).toBeGreaterThan(1000);
    expect(report.agreed / report.total).toBeGreaterThanOrEqual(0.98);
    const unexplained = report.disagreements.filter(
      (item) => !explained(item.script, item.weAccept),
    );
    expect(
      unexplained.map((item) => `${item.file}: ${item.name}: ${item.ourError || item.bashError}`),
    ).toEqual([]);
  });
});
