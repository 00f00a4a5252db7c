import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tsLoaderPath } from "@agent-bridle-tools/test-kit";
import type { EngineName } from "./engines.js";
import type { RowReport } from "./unprivileged-child.js";

// The unprivileged half of "run as root and as an unprivileged user" (kernel-boundary.md
// §4): when the test command runs as root, a table's rows are ALSO sent by a child node
// process running as nobody — `setpriv --reuid=65534 --regid=65534 --clear-groups
// --inh-caps=-all` — one child per engine. The child (helpers/unprivileged-child.ts)
// imports the same table and judge through test-kit's ts-loader.mjs, with the workspace
// packages from their built, world-readable `dist`; its fixtures and host resources are
// nobody's, under a fresh 0777 directory that is its HOME and TMPDIR. It reports every
// row as JSON; the test asserts on each row.

export const NOBODY = 65534;
export const isRoot = process.getuid?.() === 0;
const SETPRIV = "/usr/bin/setpriv";
const live = new Map<number, string>();
let stopped = false;

/** Kills every child still running, and starts no more (the file is ending). */
export function killNobodyRuns(): void {
  stopped = true;
  for (const [pid, home] of live) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {}
    rmSync(home, { recursive: true, force: true });
  }
  live.clear();
}

const here = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

/** Why the unprivileged run cannot happen here (undefined when it can). */
export function unprivilegedUnavailable(): string | undefined {
  if (process.platform !== "linux") return "Linux only";
  if (!isRoot) return "the test runs unprivileged already (its rows are the unprivileged run)";
  if (!existsSync(SETPRIV)) return `${SETPRIV} is missing`;
  return undefined;
}

export interface UnprivilegedRun {
  /** Each row's report, by its `rowsFor` title. */
  readonly rows: ReadonlyMap<string, RowReport>;
  readonly ms: number;
}

/**
 * Runs `table`'s `exportName` rows for `engine` as nobody; settles with the child's
 * report, or rejects (with its exit, signal and stderr) when it fails to report. The
 * child's process group is killed after `timeoutMs`.
 */
export function runAsNobody(
  table: string,
  exportName: string,
  engine: EngineName,
  timeoutMs: number,
): Promise<UnprivilegedRun> {
  if (stopped) return Promise.reject(new Error("the unprivileged runs were stopped"));
  const started = Date.now();
  const home = mkdtempSync(join(tmpdir(), "bridle-nobody-"));
  chmodSync(home, 0o777);
  const child = spawn(
    SETPRIV,
    [
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      "--clear-groups",
      "--inh-caps=-all",
      process.execPath,
      "--import",
      tsLoaderPath(),
      here("unprivileged-child.ts"),
      table,
      exportName,
      engine,
    ],
    {
      cwd: home,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: home, TMPDIR: home, LC_ALL: "C" },
    },
  );
  if (child.pid !== undefined) live.set(child.pid, home);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {}
  }, timeoutMs);
  return new Promise<UnprivilegedRun>((resolve, reject) => {
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (child.pid !== undefined) live.delete(child.pid);
      rmSync(home, { recursive: true, force: true });
      const out = Buffer.concat(stdout).toString("utf8");
      const at = out.lastIndexOf("\nKB-REPORT ");
      const tail = Buffer.concat(stderr).toString("utf8").slice(-4000);
      if (at < 0 || code !== 0) {
        const why = timedOut ? `killed after ${timeoutMs} ms` : `exit ${code}, signal ${signal}`;
        reject(
          new Error(
            `the unprivileged ${engine} run (nobody) gave no report: ${why}\nstderr:\n${tail}\nstdout:\n${out.slice(-2000)}`,
          ),
        );
        return;
      }
      const rows = JSON.parse(out.slice(at + 11).split("\n")[0] ?? "[]") as RowReport[];
      resolve({ rows: new Map(rows.map((row) => [row.title, row])), ms: Date.now() - started });
    });
  });
}
