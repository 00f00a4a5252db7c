import { spawn } from "node:child_process";

export interface RunOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Written to the child's stdin, which is then closed (default: closed at once). */
  readonly input?: string | undefined;
}

export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program to completion (no shell), collecting both streams. Never rejects on exit. */
export function run(program: string, args: readonly string[], options: RunOptions) {
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      }),
    );
  });
}

/** The last lines of a command's output, for an error message. */
export function tail(text: string, lines = 15): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}
