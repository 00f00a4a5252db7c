// Test helpers: one spawn server for the suite, and a served child run to its end.
import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import type { ServedChild } from "../../src/spawn-server/served-child.js";
import { type ServedSpawn, SpawnServer } from "../../src/spawn-server/spawn-server.js";
import { launcherPath } from "../launcher/harness.js";

/** The parent process id of `pid` (field 4 of `/proc/<pid>/stat`). */
export function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

export interface ServedRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly error?: NodeJS.ErrnoException | undefined;
  readonly pid: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
}

let server: SpawnServer | undefined;

export async function suiteServer(): Promise<SpawnServer> {
  server ??= new SpawnServer(await launcherPath());
  return server;
}

function text(stream: Readable | null): Promise<string> {
  if (stream === null) return Promise.resolve("");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.once("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

/** Starts `request` on the suite's server; `done` waits for its exit and its streams' end. */
export async function startServed(
  request: Partial<ServedSpawn> & Pick<ServedSpawn, "argv">,
): Promise<{ child: ServedChild; done: Promise<ServedRun> }> {
  const child: ServedChild = (await suiteServer()).spawn({
    cwd: "/",
    env: { PATH: "/usr/bin:/bin" },
    io: "npp",
    descriptors: [],
    ...request,
  });
  const ended = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    error?: NodeJS.ErrnoException;
  }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", (error) => resolve({ code: null, signal: null, error }));
  });
  await new Promise<void>((resolve) => {
    child.once("spawn", resolve);
    child.once("error", () => resolve());
  });
  const done = (async () => {
    const [stdout, stderr] = await Promise.all([text(child.stdout), text(child.stderr)]);
    return { ...(await ended), pid: child.pid, stdout, stderr };
  })();
  return { child, done };
}

/** Starts `request` on the suite's server and waits for its exit and its streams' end. */
export async function runServed(
  request: Partial<ServedSpawn> & Pick<ServedSpawn, "argv">,
): Promise<ServedRun> {
  return (await startServed(request)).done;
}
