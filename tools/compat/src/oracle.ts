/** Real bash as the oracle: `bash --norc --noprofile <args>` in the case's directory. */
import { spawn } from "node:child_process";
import type { CaseRun } from "./case-run.js";
import type { EngineResult } from "./engine.js";

export const BASH = "/bin/bash";
const TIMEOUT_MS = 10_000;

/** Run a process to completion with a group kill on timeout; exit code 124 when it timed out. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: {
    readonly cwd: string;
    readonly env: Record<string, string>;
    readonly stdin: string;
    /** Default 10 s (one case). */
    readonly timeoutMs?: number;
  },
): Promise<EngineResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: "pipe",
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // ESRCH: the group is gone already; what keeps the call open is an escapee
        // (`setsid`) holding the pipes, which are closed below.
      }
      child.stdout.destroy();
      child.stderr.destroy();
    }, options.timeoutMs ?? TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on("error", () => undefined);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        stdout: Buffer.concat(stdout).toString("latin1"),
        stderr: Buffer.concat(stderr).toString("latin1"),
        exitCode: timedOut ? 124 : (code ?? 128 + (signal === null ? 0 : 9)),
      });
    });
    child.stdin.end(options.stdin);
  });
}

export function runOracle(
  run: CaseRun,
  cwd: string,
  env: Record<string, string>,
): Promise<EngineResult> {
  return runProcess(BASH, ["--norc", "--noprofile", ...run.bashArgs], {
    cwd,
    env,
    stdin: run.bashStdin,
  });
}
