/**
 * Maps a corpus case to one run: the script (our engine's `cmd`), the bash invocation
 * that is the oracle, files, environment and home, or a skip with its reason (the
 * legitimate skips of the corpus README).
 */
import type { CompatCase, CompatFile, TestFile } from "./corpus.js";

export interface CaseRun {
  readonly file: string;
  readonly name: string;
  /** The script: stdin, or the `-c` argument, with mapped invocation options prepended. */
  readonly script: string;
  /** Arguments after `bash --norc --noprofile` for the oracle. */
  readonly bashArgs: readonly string[];
  /** What the oracle reads on stdin (the script for stdin cases; empty otherwise). */
  readonly bashStdin: string;
  readonly env: Readonly<Record<string, string>>;
  /** Relative to the run's temp directory. */
  readonly homeDir: string | null;
  readonly testFiles: readonly TestFile[];
  readonly source: CompatCase;
}

export type CaseDecision = { readonly run: CaseRun } | { readonly skip: string };

/** Interactive-only features (corpus README): whole files are skipped. */
const INTERACTIVE_FILES = new Set([
  "bind",
  "compgen",
  "complete",
  "fc",
  "history",
  "interactive",
  "prompt",
  "jobs",
]);
/** Single-letter shell flags that map to `set -<letter>` at the top of the script. */
const SET_FLAGS = new Set(["e", "u", "x", "f", "C", "E", "T", "a", "h", "B", "H", "P"]);

export const ORACLE_VERSION: readonly [number, number] = [5, 2];
const HOST_OS = "debian";
const HOST_PLATFORM = "linux";

function baseName(path: string): string {
  const slash = path.lastIndexOf("/");
  const name = path.slice(slash + 1);
  return name.endsWith(".yaml") ? name.slice(0, -5) : name;
}

function versionOf(text: string): [number, number] {
  const [major, minor] = text.split(".");
  return [Number(major ?? 0), Number(minor ?? 0)];
}

function compareVersion(left: readonly [number, number], right: readonly [number, number]): number {
  return left[0] !== right[0] ? left[0] - right[0] : left[1] - right[1];
}

function conditionSkip(item: CompatCase): string | null {
  if (item.skip) return "marked skip in the corpus";
  if (item.pty) return "interactive-only: needs a pty";
  if (item.incompatibleOs.includes(HOST_OS)) return `incompatible with this OS (${HOST_OS})`;
  if (item.incompatiblePlatforms.includes(HOST_PLATFORM))
    return `incompatible with this platform (${HOST_PLATFORM})`;
  if (
    item.minOracleVersion !== null &&
    compareVersion(ORACLE_VERSION, versionOf(item.minOracleVersion)) < 0
  ) {
    return `needs bash >= ${item.minOracleVersion}`;
  }
  if (
    item.maxOracleVersion !== null &&
    compareVersion(ORACLE_VERSION, versionOf(item.maxOracleVersion)) > 0
  ) {
    return `needs bash <= ${item.maxOracleVersion}`;
  }
  return null;
}

interface MappedArgs {
  readonly prefix: string;
  readonly script: string | null;
  readonly unsupported: string | null;
}

/** Read `args`: mappable options become a prefix; `-c script` gives the script. */
function mapArgs(args: readonly string[]): MappedArgs {
  let prefix = "";
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "-c") {
      const script = args[index + 1];
      if (script === undefined) return { prefix, script: null, unsupported: "-c without a script" };
      if (index + 2 < args.length)
        return { prefix, script: null, unsupported: "positional arguments after -c" };
      return { prefix, script, unsupported: null };
    }
    if ((arg === "-o" || arg === "-O") && args[index + 1] !== undefined) {
      const option = args[index + 1] as string;
      prefix += arg === "-o" ? `set -o ${option}; ` : `shopt -s ${option}; `;
      index += 1;
    } else if (
      arg.length > 1 &&
      arg.startsWith("-") &&
      [...arg.slice(1)].every((letter) => SET_FLAGS.has(letter))
    ) {
      prefix += `set ${arg}; `;
    } else if (arg.startsWith("-")) {
      return { prefix, script: null, unsupported: `shell invocation flag ${arg}` };
    } else {
      return { prefix, script: null, unsupported: "runs a script file given as an argument" };
    }
  }
  return { prefix, script: null, unsupported: null };
}

/** Decide how to run a case, or why it is skipped. */
export function planCase(file: CompatFile, item: CompatCase): CaseDecision {
  if (INTERACTIVE_FILES.has(baseName(file.path)))
    return { skip: `interactive-only feature (${baseName(file.path)})` };
  const condition = conditionSkip(item);
  if (condition !== null) return { skip: condition };
  const mapped = mapArgs(item.args);
  if (mapped.unsupported !== null)
    return { skip: `not expressible as one call: ${mapped.unsupported}` };
  const body = mapped.script ?? item.stdin;
  if (body === null) return { skip: "no script (neither stdin nor -c)" };
  const run: CaseRun = {
    file: file.path,
    name: item.name,
    script: mapped.prefix + body,
    bashArgs: [...item.args],
    bashStdin: item.stdin ?? "",
    env: item.env,
    homeDir: item.homeDir,
    testFiles: item.testFiles,
    source: item,
  };
  return { run };
}
