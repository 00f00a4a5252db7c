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
  readonly stdin: Uint8Array | AsyncIterable<Uint8Array>;
  readonly stdout: (chunk: Uint8Array) => void;
  readonly stderr: (chunk: Uint8Array) => void;
  readonly signal?: AbortSignal;
  /**
   * Extra descriptors the child gets at these numbers (the interpreter's process
   * substitutions, `/dev/fd/63`…): `input` bytes it can read, or an `output` it writes.
   */
  readonly descriptors?: ReadonlyMap<
    number,
    { readonly input: Uint8Array } | { readonly output: (chunk: Uint8Array) => void }
  >;
}

/** Bytes, or chunks as they arrive, into the child's stdin (with backpressure), then EOF. */
async function feed(stdin: NodeJS.WritableStream, input: Uint8Array | AsyncIterable<Uint8Array>) {
  if (input instanceof Uint8Array) {
    stdin.end(input);
    return;
  }
  let closed = false;
  stdin.once("close", () => {
    closed = true;
  });
  for await (const chunk of input) {
    if (closed) return;
    if (!stdin.write(chunk)) {
      await new Promise((resolve) => {
        stdin.once("drain", resolve);
        stdin.once("close", resolve);
      });
    }
  }
  if (!closed) stdin.end();
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

/**
 * Node hands a child its extra descriptors as socket pairs, and Linux refuses to open
 * `/dev/fd/N` of a socket (ENXIO), so a program given a process-substitution path could
 * not open it. With extra descriptors the program starts through a bash trampoline that
 * swaps each socket for a real pipe (`exec 63< <(cat <&63)`) and then execs it.
 */
function trampoline(
  request: ChildProcessRequest,
  extra: NonNullable<ChildProcessRequest["descriptors"]>,
): { file: string; args: string[] } {
  const swaps = [...extra].map(([fd, descriptor]) =>
    "input" in descriptor ? `exec ${fd}< <(exec cat <&${fd})` : `exec ${fd}> >(exec cat >&${fd})`,
  );
  const script = `${swaps.join("; ")}; exec -a "$1" "$0" "\${@:2}"`;
  const [argv0, ...args] = request.argv;
  return {
    file: "/bin/bash",
    args: ["--norc", "--noprofile", "-c", script, request.file, argv0 ?? request.file, ...args],
  };
}

/** The in-process placeholder runner: a plain child process per command. */
export const childProcessRunner = {
  run(request: ChildProcessRequest): Promise<{ status: number }> {
    return new Promise((resolve) => {
      const [argv0, ...programArgs] = request.argv;
      const extra = request.descriptors ?? new Map();
      const launch =
        extra.size === 0 ? { file: request.file, args: programArgs } : trampoline(request, extra);
      const highest = Math.max(2, ...extra.keys());
      const stdio: ("pipe" | "ignore")[] = [];
      for (let fd = 0; fd <= highest; fd += 1)
        stdio.push(fd <= 2 || extra.has(fd) ? "pipe" : "ignore");
      const child = spawn(launch.file, launch.args, {
        argv0: extra.size === 0 ? (argv0 ?? request.file) : "bash",
        cwd: request.cwd,
        env: { ...request.env },
        stdio,
        ...(request.signal === undefined ? {} : { signal: request.signal, killSignal: "SIGKILL" }),
      });
      child.stdout?.on("data", (chunk: Buffer) => request.stdout(chunk));
      child.stderr?.on("data", (chunk: Buffer) => request.stderr(chunk));
      child.stdin?.on("error", () => undefined);
      child.on("error", () => resolve({ status: 126 }));
      child.on("close", (code, signal) => {
        resolve({ status: code ?? 128 + (signal === null ? 0 : (SIGNALS[signal] ?? 0)) });
      });
      for (const [fd, descriptor] of extra) {
        const stream = child.stdio[fd] as NodeJS.ReadWriteStream | null;
        if (stream === null) continue;
        stream.on("error", () => undefined);
        if ("input" in descriptor) stream.end(descriptor.input);
        else stream.on("data", (chunk: Buffer) => descriptor.output(chunk));
      }
      if (child.stdin) void feed(child.stdin, request.stdin);
    });
  },
};
