import { lstat, open, readdir, readlink, stat } from "node:fs/promises";
import type { GatedOpener, GateOutcome } from "@agent-bridle/core";
import { UTILITIES } from "../index.js";
import type { ByteSink } from "../io/io-context.js";

async function attempt<T>(act: () => Promise<T>): Promise<GateOutcome<T>> {
  try {
    return { ok: true, value: await act() };
  } catch (error) {
    return { ok: false, errno: (error as { code?: string }).code ?? "EIO" };
  }
}

/**
 * The carried opener passes every operation through: in a carried run the boundary is
 * the sandbox's kernel confinement of this whole process (the spawning engine has
 * exec-checked the utility's logical name); this process adds no authority check.
 */
const PASS_THROUGH: GatedOpener = {
  open: (path) => attempt(() => open(path, "r")),
  openWrite: (path) => attempt(() => open(path, "w")),
  stat: (path) => attempt(() => stat(path, { bigint: true })),
  lstat: (path) => attempt(() => lstat(path, { bigint: true })),
  readdir: (path) => attempt(() => readdir(path)),
  readlink: (path) => attempt(() => readlink(path)),
};

/** A sink over a process stream: each write resolves once the stream took the chunk. */
function streamSink(stream: NodeJS.WriteStream): ByteSink {
  return {
    write: (chunk) =>
      new Promise((resolve, reject) => {
        stream.write(chunk, (error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Runs the authenticated utility over this process's own streams and directory. */
export async function runAuthenticated(
  name: string,
  argv: readonly string[],
  say: (text: string) => Promise<void>,
): Promise<number> {
  if (!Object.hasOwn(UTILITIES, name)) {
    await say(`unknown bundled command: ${name}`);
    return 127;
  }
  const utility = UTILITIES[name as keyof typeof UTILITIES];
  return utility({
    argv,
    stdin: process.stdin,
    stdout: streamSink(process.stdout),
    stderr: streamSink(process.stderr),
    cwd: process.cwd(),
    env: process.env,
    opener: PASS_THROUGH,
    tempDir: process.env.TMPDIR,
    onDenial: () => undefined,
  });
}
