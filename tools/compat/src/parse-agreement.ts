/**
 * Differential check of our parser against bash's own: for every script in the corpus,
 * `bash --norc --noprofile -n` accepts iff `parseBash` accepts. bash runs in batches (one
 * driver process loops over many `bash -n` calls) so the whole corpus takes seconds.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseBash } from "@agent-bridle/bash";
import type { CompatFile } from "./corpus.js";
import { BASH, runProcess } from "./oracle.js";
import { removeDirectory } from "./sandbox-dir.js";

export interface ParsedScript {
  readonly file: string;
  readonly name: string;
  readonly script: string;
  /** `-O name` / `-o name` options from the case's arguments (they change bash's parser). */
  readonly options: readonly string[];
}

export interface Disagreement extends ParsedScript {
  readonly bashAccepts: boolean;
  readonly weAccept: boolean;
  readonly bashError: string;
  readonly ourError: string;
}

export interface AgreementReport {
  readonly total: number;
  readonly agreed: number;
  readonly disagreements: readonly Disagreement[];
}

/** The scripts of the corpus: each case's stdin, or its `-c` argument. */
export function corpusScripts(files: readonly CompatFile[]): ParsedScript[] {
  const scripts: ParsedScript[] = [];
  for (const file of files) {
    for (const item of file.cases) {
      const options: string[] = [];
      let script: string | null = null;
      let scriptFile = false;
      for (let index = 0; index < item.args.length; index += 1) {
        const arg = item.args[index] as string;
        if (arg === "-c") {
          script = item.args[index + 1] ?? null;
          break;
        }
        if ((arg === "-O" || arg === "-o") && item.args[index + 1] !== undefined) {
          options.push(arg, item.args[index + 1] as string);
          index += 1;
        } else if (!arg.startsWith("-")) {
          scriptFile = true;
          break;
        }
      }
      if (script === null && !scriptFile) script = item.stdin;
      if (script !== null) scripts.push({ file: file.path, name: item.name, script, options });
    }
  }
  return scripts;
}

function quote(text: string): string {
  return `'${text.split("'").join("'\\''")}'`;
}

/** `bash --norc --noprofile -n` on each script (batched drivers; see the header). */
export function bashNoExecVerdicts(
  scripts: readonly string[],
  batches: number,
  options: readonly string[] = [],
): Promise<{ ok: boolean; error: string }[]> {
  return bashVerdicts(
    scripts.map((script) => ({ file: "", name: "", script, options })),
    batches,
  );
}

async function bashVerdicts(
  scripts: readonly ParsedScript[],
  batches: number,
): Promise<{ ok: boolean; error: string }[]> {
  const directory = mkdtempSync(join(tmpdir(), "bash-n-"));
  try {
    const lines = scripts.map((script, index) => {
      writeFileSync(join(directory, `${index}.sh`), script.script);
      const options = script.options.map(quote).join(" ");
      const path = join(directory, String(index));
      return `${BASH} --norc --noprofile -n ${options} ${path}.sh </dev/null >/dev/null 2>${path}.err; echo ${index} $?`;
    });
    const size = Math.ceil(lines.length / batches);
    const env = { PATH: "/usr/bin:/bin", LC_ALL: "C" };
    // One driver runs hundreds of `bash -n` (a few ms each, more on a loaded machine).
    const timeoutMs = Math.max(10_000, size * 100);
    const runs = Array.from({ length: batches }, (_, batch) =>
      runProcess(BASH, ["--norc", "--noprofile"], {
        cwd: directory,
        env,
        stdin: lines.slice(batch * size, (batch + 1) * size).join("\n"),
        timeoutMs,
      }),
    );
    const verdicts: { ok: boolean; error: string }[] = scripts.map(() => ({
      ok: false,
      error: "not run",
    }));
    for (const result of await Promise.all(runs)) {
      if (result.exitCode === 124) {
        throw new Error(`a bash -n driver of ${size} scripts timed out after ${timeoutMs} ms`);
      }
      for (const line of result.stdout.split("\n")) {
        const [index, status] = line.split(" ");
        if (index === undefined || status === undefined) continue;
        const error = readFileSync(join(directory, `${index}.err`), "latin1").trim();
        // bash -n exits 0 after a `[[ … ]]` expression error but prints it (and aborts such a
        // script when it runs), so any diagnostic other than a warning counts as a refusal.
        const diagnostic = error
          .split("\n")
          .some((message) => message !== "" && !message.includes("warning:"));
        verdicts[Number(index)] = { ok: status === "0" && !diagnostic, error };
      }
    }
    return verdicts;
  } finally {
    removeDirectory(directory);
  }
}

export async function checkParseAgreement(
  files: readonly CompatFile[],
  batches = 2,
): Promise<AgreementReport> {
  const scripts = corpusScripts(files);
  const verdicts = await bashVerdicts(scripts, batches);
  const disagreements: Disagreement[] = [];
  scripts.forEach((script, index) => {
    const bash = verdicts[index] ?? { ok: false, error: "" };
    const ours = parseBash(script.script);
    if (bash.ok !== ours.ok) {
      disagreements.push({
        ...script,
        bashAccepts: bash.ok,
        weAccept: ours.ok,
        bashError: bash.error,
        ourError: ours.ok ? "" : `line ${ours.error.line}: ${ours.error.message}`,
      });
    }
  });
  return { total: scripts.length, agreed: scripts.length - disagreements.length, disagreements };
}
