import { spawnSync } from "node:child_process";

export interface GnuOutcome {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly status: number;
}

/** Runs GNU's utility (the oracle) under `LC_ALL=C` with a fixed `PATH`. */
export function runGnu(
  name: string,
  argv: readonly string[],
  cwd: string,
  stdin?: Buffer,
): GnuOutcome {
  const result = spawnSync(name, argv, {
    cwd,
    env: { LC_ALL: "C", PATH: "/usr/bin:/bin" },
    input: stdin ?? Buffer.alloc(0),
    maxBuffer: 64 * 1024 * 1024,
  });
  // EPIPE: GNU exited before taking all of stdin (head -n 0): its output still counts.
  const code = (result.error as { code?: string } | undefined)?.code;
  if (result.error !== undefined && code !== "EPIPE") throw result.error;
  return { stdout: result.stdout, stderr: result.stderr, status: result.status ?? -1 };
}
