/** The fresh temp directory a case runs in: its test files, its home, and a snapshot afterwards. */
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import type { CaseRun } from "./case-run.js";

export const ORACLE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

export function prepareDirectory(run: CaseRun): string {
  const directory = mkdtempSync(join(tmpdir(), "bash-compat-"));
  for (const file of run.testFiles) {
    const path = join(directory, file.path);
    if (relative(directory, path).startsWith(".."))
      throw new Error(`test file outside the case directory: ${file.path}`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
    if (file.executable) chmodSync(path, 0o755);
  }
  if (run.homeDir !== null) mkdirSync(join(directory, run.homeDir), { recursive: true });
  return directory;
}

/** brush's runner environment: cleared, then `LC_ALL`, `PS1`, `PATH`, the case's env, `HOME`. */
export function caseEnvironment(run: CaseRun, directory: string): Record<string, string> {
  const env: Record<string, string> = { LC_ALL: "C", PS1: "test$ ", PATH: ORACLE_PATH, ...run.env };
  if (run.homeDir !== null) env.HOME = join(directory, run.homeDir);
  return env;
}

/** Relative path → contents (`<dir>`, `<symlink> target`) of everything under `directory`. */
export function snapshotDirectory(directory: string): Record<string, string> {
  const snapshot: Record<string, string> = {};
  const walk = (current: string): void => {
    for (const entry of readdirSync(current).sort()) {
      const path = join(current, entry);
      const key = relative(directory, path);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) snapshot[key] = `<symlink> ${readlinkSync(path)}`;
      else if (stat.isDirectory()) {
        snapshot[key] = "<dir>";
        walk(path);
      } else if (stat.isFile()) snapshot[key] = readFileSync(path, "latin1");
      else snapshot[key] = "<special>";
    }
  };
  walk(directory);
  return snapshot;
}

export function removeDirectory(directory: string): void {
  rmSync(directory, { recursive: true, force: true });
}
