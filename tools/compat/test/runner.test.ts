import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCorpus } from "../src/corpus.js";
import { type Engine, parseOnlyEngine } from "../src/engine.js";
import { runOracle } from "../src/oracle.js";
import { formatReport } from "../src/report.js";
import { runCorpus } from "../src/runner.js";

const root = mkdtempSync(join(tmpdir(), "compat-runner-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, "compat"));
writeFileSync(
  join(root, "compat", "small.yaml"),
  [
    "name: Small",
    "cases:",
    "- name: echo",
    "  stdin: 'echo hi'",
    "- name: files",
    "  test_files:",
    "  - path: in.txt",
    "    contents: 'data'",
    "  stdin: 'cat in.txt; echo x > out.txt'",
    "- name: skipped",
    "  skip: true",
    "  stdin: 'echo'",
    "",
  ].join("\n"),
);

/** Real bash as the engine: it must pass every case it runs (the scoring works). */
const bashEngine: Engine = (run, place) => runOracle(run, place.cwd, { ...place.env });

describe("runCorpus", () => {
  const files = loadCorpus(root);

  it("scores the parse-only engine as failing every case it runs", async () => {
    const lines = formatReport(await runCorpus(files, { engine: parseOnlyEngine }), false);
    expect(lines).toContain("compat/small.yaml: 0 passed, 2 failed, 1 skipped");
    expect(lines).toContain("  FAIL echo");
    expect(lines.at(-1)).toBe("bash-compat: 0 passed, 2 failed, 1 skipped");
  });

  it("scores an engine that behaves like bash as passing, files included", async () => {
    const results = await runCorpus(files, { engine: bashEngine });
    expect(results.map((result) => result.outcome.status)).toEqual(["passed", "passed", "skipped"]);
    expect(formatReport(results, false).at(-1)).toBe("bash-compat: 2 passed, 0 failed, 1 skipped");
  });

  it("runs one named case", async () => {
    const results = await runCorpus(files, { engine: bashEngine, caseName: "files" });
    expect(results).toEqual([
      { file: "compat/small.yaml", name: "files", outcome: { status: "passed" } },
    ]);
  });

  it("reports a difference in the directory contents", async () => {
    const sloppy: Engine = async () => ({ stdout: "data", stderr: "", exitCode: 0 });
    const results = await runCorpus(files, { engine: sloppy, caseName: "files" });
    expect(results[0]?.outcome).toEqual({ status: "failed", differences: ["directory contents"] });
  });
});
