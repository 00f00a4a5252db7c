import { spawn } from "node:child_process";

// DEV-ONLY. An unconfined external-command runner for the in-process bash interpreter,
// used by its unit tests and the bash-compat runner until the worker and the gated
// sandbox entry exist. It lives here, outside every published package, because every
// spawn of a published package goes through @agent-bridle/sandbox.

/** Structurally the interpreter's `ExternalRequest`. */
export interface ChildProcessRequest {
  readonly file: string;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly stdin: Uint8Array;
  readonly stdout: (chunk: Uint8Array) => void;
  readonly stderr: (chunk: Uint8Array) => void;
  readonly signal?: AbortSignal;
}

const SIGNALS: Readonly<Record<string, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGABRT: 6,
  SIGKILL: 9,
  SIGSEGV: 11,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
};

/** The in-process placeholder runner: a plain child process per command. */
export const childProcessRunner = {
  run(request: ChildProcessRequest): Promise<{ status: number }> {
    return new Promise((resolve) => {
      const [argv0, ...args] = request.argv;
      const child = spawn(request.file, args, {
        argv0: argv0 ?? request.file,
        cwd: request.cwd,
        env: { ...request.env },
        stdio: "pipe",
        ...(request.signal === undefined ? {} : { signal: request.signal, killSignal: "SIGKILL" }),
      });
      child.stdout.on("data", (chunk: Buffer) => request.stdout(chunk));
      child.stderr.on("data", (chunk: Buffer) => request.stderr(chunk));
      child.stdin.on("error", () => undefined);
      child.on("error", () => resolve({ status: 126 }));
      child.on("close", (code, signal) => {
        resolve({ status: code ?? 128 + (signal === null ? 0 : (SIGNALS[signal] ?? 0)) });
      });
      child.stdin.end(request.stdin);
    });
  },
};
