#!/usr/bin/env node
/**
 * `compat [--cases <dir>] [--case <name>] [--parse] [--verbose]`: runs the bash-compat
 * corpus through the engine and real bash and prints per-file and total results
 * (ending with `bash-compat: <P> passed, <F> failed, <S> skipped`); `--parse` reports
 * the parser's agreement with `bash -n` instead.
 */
import { fileURLToPath } from "node:url";
import { loadCorpus } from "./corpus.js";
import { interpreterEngine } from "./engine.js";
import { checkParseAgreement } from "./parse-agreement.js";
import { formatReport } from "./report.js";
import { runCorpus } from "./runner.js";

/** The vendored public corpus (`tools/compat/corpus`, from src/ or dist/). */
const DEFAULT_CASES = fileURLToPath(new URL("../corpus/cases", import.meta.url));

interface Options {
  cases: string;
  caseName?: string;
  parse: boolean;
  verbose: boolean;
}

function readOptions(argv: readonly string[]): Options {
  const options: Options = { cases: DEFAULT_CASES, parse: false, verbose: false };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    const value = argv[index + 1];
    if (arg === "--cases" && value !== undefined) {
      options.cases = value;
      index += 1;
    } else if (arg === "--case" && value !== undefined) {
      options.caseName = value;
      index += 1;
    } else if (arg === "--parse") options.parse = true;
    else if (arg === "--verbose") options.verbose = true;
    else if (arg !== "--")
      throw new Error(
        `unknown argument: ${arg ?? ""} (use --cases <dir>, --case <name>, --parse, --verbose)`,
      );
  }
  return options;
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const files = loadCorpus(options.cases);
  if (options.parse) {
    const report = await checkParseAgreement(files);
    for (const item of report.disagreements) {
      const verdict = item.bashAccepts ? "bash accepts, we refuse" : "bash refuses, we accept";
      console.log(`DISAGREE ${item.file}: ${item.name}: ${verdict}`);
      console.log(`  ours: ${item.ourError || "ok"}`);
      console.log(`  bash: ${item.bashError.split("\n")[0] || "ok"}`);
    }
    const rate = report.total === 0 ? 100 : (100 * report.agreed) / report.total;
    console.log(
      `parser agreement with bash -n: ${report.agreed}/${report.total} (${rate.toFixed(1)}%)`,
    );
    return 0;
  }
  const runOptions =
    options.caseName === undefined
      ? { engine: interpreterEngine }
      : { engine: interpreterEngine, caseName: options.caseName };
  const results = await runCorpus(files, runOptions);
  for (const line of formatReport(results, options.verbose)) console.log(line);
  return results.some((result) => result.outcome.status === "failed") ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 2;
  },
);
