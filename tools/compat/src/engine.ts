/** The engine under test, as the runner sees it. */
import { parseBash } from "@agent-bridle/shell-brush";
import type { CaseRun } from "./case-run.js";

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
 * Until the interpreter lands: parse the script and report, never execute. Every case
 * fails honestly; a parse error is reported as bash words it (exit status 2).
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
