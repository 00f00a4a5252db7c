/**
 * Parser agreement over scripts generated from the grammar (`grammar/`), in two checks
 * against real `bash --norc --noprofile` (stdin /dev/null):
 *
 * 1. Acceptance: each script is wrapped as the body of a function inside a function,
 *    `g() {\nf() {\n<script>\n}\n}`, and a bash driver `eval`s the wrappers one after
 *    another (one process per batch, not per script: defining `g` parses it without
 *    running anything, even where a broken script closes `f` early). Bash accepts a
 *    script when the definition succeeds with no diagnostic; we accept it when
 *    `parseBash` accepts the wrapper. The wrapper must not change our own verdict on the
 *    bare script, and on a sample of the scripts the driver's verdict is checked against
 *    plain `bash -n` (`checkParseAgreement`'s batched runner).
 * 2. Meaning: for every script bash accepts, the driver prints `declare -f g`, bash's
 *    re-printing of the function from its own parse tree. We parse that re-print and
 *    compare its body's AST with the AST of the original body, modulo the layout
 *    normalisations listed in `ast-shape.ts`. Equal ASTs mean our parser read the same
 *    commands, words, quotes and expansions that bash did; a re-print we cannot parse,
 *    or a different tree, is a divergence.
 *
 * The driver runs with `extglob` on, because our parser always reads extglob groups (the
 * engines turn the option on before parsing).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FunctionDefinition, type List, parseBash } from "@agent-bridle/bash";
import { shapeText } from "./ast-shape.js";
import { type GeneratedScript, generateScripts } from "./grammar/generate.js";
import { BASH, runProcess } from "./oracle.js";
import { bashNoExecVerdicts } from "./parse-agreement.js";
import { removeDirectory } from "./sandbox-dir.js";

export type DivergenceKind =
  | "acceptance"
  | "wrapper"
  | "bash -n"
  | "re-print refused"
  | "re-print differs";

export interface Divergence {
  readonly kind: DivergenceKind;
  readonly seed: number;
  readonly index: number;
  readonly script: string;
  readonly detail: string;
}

export interface GeneratedReport {
  readonly seed: number;
  readonly total: number;
  readonly bashAccepted: number;
  readonly reprintsCompared: number;
  readonly divergences: readonly Divergence[];
}

interface BashVerdict {
  readonly ok: boolean;
  readonly error: string;
  readonly reprint: string;
}

/**
 * The driver: reads the wrappers (NUL-terminated) from descriptor 3 and frames each
 * verdict as `\0B\0<messages>\0S<status>\0<declare -f g>`. Nothing of a script may run:
 * after some syntax errors bash's `eval` goes on with the text after the error as commands
 * (after `x=(a (b))`, a following `for ((;;))` loop runs), so a DEBUG trap (inherited by
 * subshells, `set -T`, as pipelines run there) ends the shell at the first command an
 * `eval` would run (the frame stays open, or holds bash's message: the script counts as
 * refused). After a refused script the shell starts afresh (`exec`, no fork): bash's
 * parser keeps state over some syntax errors (after `[[ a == b c ]]` it refuses the next,
 * valid `[[ -s x ]]`). A syntax error inside a command substitution ends the shell too.
 */
const INNER = `shopt -s extglob
set -T
trap '[[ $guard == 1 && $BASH_COMMAND != "guard=0" ]] && exit 99' DEBUG
while IFS= read -r -d '' -u 3 s; do
  printf '\\0B\\0'
  eval "guard=1
$s
guard=0" 2>&1 </dev/null
  st=$?
  guard=0
  printf '\\0S%d\\0' "$st"
  ((st == 0)) || exec /bin/bash --norc --noprofile -c "$INNER"
  declare -f g
  unset -f g
done`;

/**
 * Starts the driver again after it ended early; the scripts' file stays open on
 * descriptor 3, so the new one reads on after the script that ended the old one. A driver
 * killed by a signal (SIGPIPE: whoever read its output is gone) ends the loop, so a test
 * run that was killed leaves no driver behind restarting bash for every script left.
 */
const OUTER = `exec 3< "$1"
until /bin/bash --norc --noprofile -c "$INNER"; do st=$?; [ "$st" -lt 128 ] || exit "$st"; done`;

export function wrap(script: string): string {
  return `g() {\nf() {\n${script}\n}\n}`;
}

function verdict(error: string, status: string, reprint: string): BashVerdict {
  const diagnostic = error.split("\n").some((line) => line !== "" && !line.includes("warning:"));
  return { ok: status === "0" && !diagnostic, error: error.trim(), reprint };
}

/** One driver over `scripts`, in order. */
async function runDriver(
  directory: string,
  name: string,
  scripts: readonly string[],
): Promise<BashVerdict[]> {
  const input = join(directory, name);
  writeFileSync(input, scripts.map((script) => `${wrap(script)}\0`).join(""), "latin1");
  const result = await runProcess(BASH, ["--norc", "--noprofile", "-c", OUTER, "driver", input], {
    cwd: directory,
    env: { PATH: join(directory, "no-programs"), LC_ALL: "C", INNER },
    stdin: "",
    timeoutMs: Math.max(20_000, scripts.length * 10),
  });
  if (result.exitCode === 124) throw new Error(`a driver of ${scripts.length} scripts timed out`);
  const frames = result.stdout.split("\0B\0").slice(1);
  if (frames.length !== scripts.length)
    throw new Error(`the driver framed ${frames.length} of ${scripts.length} scripts`);
  return frames.map((frame, index) => {
    const closed = /^([^\0]*)\0S(\d+)\0([^\0]*)$/.exec(frame);
    if (closed !== null) return verdict(closed[1] ?? "", closed[2] ?? "", closed[3] ?? "");
    // The shell ended during this script (a definition that parses always completes its
    // frame): refused, with bash's message when it printed one (after `[[ ]]` inside
    // `<(…)` it prints none).
    return { ok: false, error: frame.trim() || `(bash ended at script ${index})`, reprint: "" };
  });
}

async function driverVerdicts(scripts: readonly string[], batches: number): Promise<BashVerdict[]> {
  const directory = mkdtempSync(join(tmpdir(), "bash-declare-f-"));
  try {
    const size = Math.ceil(scripts.length / batches);
    const runs = Array.from({ length: batches }, (_, batch) =>
      runDriver(directory, `batch-${batch}`, scripts.slice(batch * size, (batch + 1) * size)),
    );
    return (await Promise.all(runs)).flat();
  } finally {
    removeDirectory(directory);
  }
}

/** The body of the function `g` that `source` defines as its only command, or a reason. */
function functionBody(source: string): List | string {
  const result = parseBash(source);
  if (!result.ok) return `line ${result.error.line}: ${result.error.message}`;
  const statements = result.script.body.statements;
  const command = statements[0]?.andOr.pipelines[0]?.commands[0];
  if (statements.length !== 1 || command?.type !== "FunctionDefinition")
    return "not one function definition";
  const body = (command as FunctionDefinition).body.body;
  if (body.type !== "BraceGroup") return `body is ${body.type}`;
  return body.body;
}

function compare(script: GeneratedScript, bash: BashVerdict): Divergence[] {
  const found: Divergence[] = [];
  const at = { seed: script.seed, index: script.index, script: script.text };
  const wrapped = parseBash(wrap(script.text));
  const bare = parseBash(script.text);
  if (wrapped.ok !== bash.ok) {
    const ours = wrapped.ok ? "we accept" : `we refuse (${wrapped.error.message})`;
    found.push({ ...at, kind: "acceptance", detail: `${ours}; bash: ${bash.error || "accepts"}` });
    return found;
  }
  if (bare.ok !== wrapped.ok)
    found.push({ ...at, kind: "wrapper", detail: "our verdict on the bare script differs" });
  if (!bash.ok) return found;
  const original = functionBody(wrap(script.text));
  const reprinted = functionBody(bash.reprint);
  if (typeof reprinted === "string") {
    found.push({ ...at, kind: "re-print refused", detail: `${reprinted}\n${bash.reprint}` });
  } else if (typeof original !== "string" && shapeText(original) !== shapeText(reprinted)) {
    found.push({ ...at, kind: "re-print differs", detail: bash.reprint });
  }
  return found;
}

export interface GeneratedOptions {
  readonly seed: number;
  readonly count: number;
  /** Parallel bash drivers. */
  readonly batches?: number;
  /** How many scripts are also checked with plain `bash -n`. */
  readonly bashNSample?: number;
}

export async function checkGeneratedAgreement(options: GeneratedOptions): Promise<GeneratedReport> {
  const scripts = generateScripts(options.seed, options.count);
  const texts = scripts.map((script) => script.text);
  const sample = scripts.slice(0, options.bashNSample ?? 200);
  const [verdicts, plain] = await Promise.all([
    driverVerdicts(texts, options.batches ?? 2),
    bashNoExecVerdicts(
      sample.map((script) => script.text),
      1,
      ["-O", "extglob"],
    ),
  ]);
  const divergences: Divergence[] = [];
  let bashAccepted = 0;
  scripts.forEach((script, index) => {
    const bash = verdicts[index] as BashVerdict;
    if (bash.ok) bashAccepted += 1;
    divergences.push(...compare(script, bash));
  });
  sample.forEach((script, index) => {
    const bashN = plain[index];
    if (bashN !== undefined && bashN.ok !== verdicts[index]?.ok) {
      divergences.push({
        kind: "bash -n",
        seed: script.seed,
        index: script.index,
        script: script.text,
        detail: `bash -n ${bashN.ok ? "accepts" : `refuses: ${bashN.error}`}; the function wrapper ${verdicts[index]?.ok ? "is accepted" : "is refused"}`,
      });
    }
  });
  return {
    seed: options.seed,
    total: scripts.length,
    bashAccepted,
    reprintsCompared: bashAccepted,
    divergences,
  };
}
