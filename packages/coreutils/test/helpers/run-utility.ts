import type { Denial, GatedOpener } from "@agent-bridle/core";
import { UTILITIES, type UtilityName } from "../../src/index.js";

export interface RunOutcome {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly status: number;
  readonly denials: readonly Denial[];
}

export interface RunOptions {
  readonly cwd: string;
  readonly opener: GatedOpener;
  readonly stdin?: Buffer | AsyncIterable<Uint8Array>;
  readonly tempDir?: string;
  readonly sortBufferBytes?: number;
  readonly env?: Record<string, string>;
}

async function* once(bytes: Buffer): AsyncIterable<Uint8Array> {
  if (bytes.length > 0) yield bytes;
}

/** Runs one utility in-process, collecting its output. */
export async function runUtility(
  name: UtilityName,
  argv: readonly string[],
  options: RunOptions,
): Promise<RunOutcome> {
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const denials: Denial[] = [];
  const input = options.stdin ?? Buffer.alloc(0);
  const status = await UTILITIES[name]({
    argv,
    stdin: Buffer.isBuffer(input) ? once(input) : input,
    stdout: { write: (chunk) => void stdout.push(Buffer.from(chunk)) },
    stderr: { write: (chunk) => void stderr.push(Buffer.from(chunk)) },
    cwd: options.cwd,
    env: options.env ?? { LC_ALL: "C" },
    opener: options.opener,
    tempDir: options.tempDir,
    sortBufferBytes: options.sortBufferBytes,
    onDenial: (denial) => void denials.push(denial),
  });
  return { stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), status, denials };
}
