/** Runs planned cases through the oracle (twice, to detect varying output) and the engine. */
import { type CaseRun, planCase } from "./case-run.js";
import { compareRuns, type Observed } from "./compare.js";
import type { CompatFile } from "./corpus.js";
import type { Engine, EngineResult } from "./engine.js";
import { runOracle } from "./oracle.js";
import {
  caseEnvironment,
  prepareDirectory,
  removeDirectory,
  snapshotDirectory,
} from "./sandbox-dir.js";

export type CaseOutcome =
  | { readonly status: "passed" }
  | { readonly status: "failed"; readonly differences: readonly string[] }
  | { readonly status: "skipped"; readonly reason: string };

export interface CaseResult {
  readonly file: string;
  readonly name: string;
  readonly outcome: CaseOutcome;
}

async function observe(
  run: CaseRun,
  execute: (cwd: string, env: Record<string, string>) => Promise<EngineResult>,
): Promise<Observed> {
  const directory = prepareDirectory(run);
  try {
    const result = await execute(directory, caseEnvironment(run, directory));
    return { ...result, files: snapshotDirectory(directory) };
  } finally {
    removeDirectory(directory);
  }
}

async function runCase(run: CaseRun, engine: Engine): Promise<CaseOutcome> {
  const first = await observe(run, (cwd, env) => runOracle(run, cwd, env));
  const second = await observe(run, (cwd, env) => runOracle(run, cwd, env));
  if (compareRuns(run, first, second).length > 0)
    return { status: "skipped", reason: "oracle output varies between two bash runs" };
  const actual = await observe(run, (cwd, env) => engine(run, { cwd, env }));
  const differences = compareRuns(run, first, actual);
  return differences.length === 0 ? { status: "passed" } : { status: "failed", differences };
}

export interface RunOptions {
  readonly engine: Engine;
  /** Only cases whose name equals this (`--case`). */
  readonly caseName?: string;
  readonly concurrency?: number;
}

/** Every case of `files` (or the named one), in corpus order. */
export async function runCorpus(
  files: readonly CompatFile[],
  options: RunOptions,
): Promise<CaseResult[]> {
  const jobs: { file: string; name: string; perform: () => Promise<CaseOutcome> }[] = [];
  for (const file of files) {
    for (const item of file.cases) {
      if (options.caseName !== undefined && item.name !== options.caseName) continue;
      const decision = planCase(file, item);
      const perform =
        "skip" in decision
          ? async (): Promise<CaseOutcome> => ({ status: "skipped", reason: decision.skip })
          : () => runCase(decision.run, options.engine);
      jobs.push({ file: file.path, name: item.name, perform });
    }
  }
  const results: CaseResult[] = new Array(jobs.length);
  let nextJob = 0;
  const worker = async (): Promise<void> => {
    while (nextJob < jobs.length) {
      const index = nextJob++;
      const job = jobs[index];
      if (job === undefined) return;
      let outcome: CaseOutcome;
      try {
        outcome = await job.perform();
      } catch (error) {
        outcome = { status: "failed", differences: [`runner error: ${(error as Error).message}`] };
      }
      results[index] = { file: job.file, name: job.name, outcome };
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 2 }, worker));
  return results;
}
