/** The engine under test, as the runner sees it. */
import { parseBash } from "@agent-bridle/bash";
import { runBash } from "@agent-bridle/shell-brush";
import { childProcessRunner, passThroughAccess } from "@agent-bridle-tools/test-kit";
import type { CaseRun } from "./case-run.js";
import { BASH } from "./oracle.js";

export interface EngineResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** Where a run happens: the prepared directory and the case environment. */
export interface EnginePlace {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

export type Engine = (run: CaseRun, place: EnginePlace) => Promise<EngineResult>;

/** Not an exit status any process can have: a parse-only result never matches the oracle. */
export const NOT_EXECUTED = -1;

/**
 * Parse the script and report, never execute. Every case fails honestly; a parse error
 * is reported as bash words it (exit status 2).
 */
export const parseOnlyEngine: Engine = async (run) => {
  const result = parseBash(run.script);
  if (!result.ok) {
    return {
      stdout: "",
      stderr: `bash: line ${result.error.line}: ${result.error.message}\n`,
      exitCode: 2,
    };
  }
  return {
    stdout: "",
    stderr: "shell-brush: parse-only engine, nothing executed\n",
    exitCode: NOT_EXECUTED,
  };
};

/** As the oracle's own limit: a run still going after this ends with status 124. */
const ENGINE_TIMEOUT_MS = 10_000;

/**
 * The in-process interpreter with a pass-through gate (no worker, no policy); external
 * commands are plain child processes. Stdin is empty (the oracle reads the script there).
 */
export const interpreterEngine: Engine = async (run, place) => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ENGINE_TIMEOUT_MS);
  try {
    const result = await runBash(run.script, {
      cwd: place.cwd,
      env: place.env,
      scriptName: BASH,
      runner: childProcessRunner,
      access: passThroughAccess,
      signal: controller.signal,
      deadline: Date.now() + ENGINE_TIMEOUT_MS,
    });
    return {
      stdout: result.stdout.toString("latin1"),
      stderr: result.stderr.toString("latin1"),
      exitCode: result.exitCode,
    };
  } finally {
    clearTimeout(timer);
  }
};
