import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { childProcessRunner, passThroughAccess } from "@agent-bridle-tools/test-kit";
import { afterAll } from "vitest";
import { runBash } from "../../src/index.js";

const directory = mkdtempSync(join(tmpdir(), "shell-brush-interpret-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

export const PATH = "/usr/local/bin:/usr/bin:/bin";

export interface Ran {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number;
}

/** Run a script in-process in a scratch directory. */
export async function sh(source: string, cwd = directory): Promise<Ran> {
  const result = await runBash(source, {
    cwd,
    env: { PATH },
    scriptName: "bash",
    runner: childProcessRunner,
    access: passThroughAccess,
  });
  return {
    stdout: result.stdout.toString("utf8"),
    stderr: result.stderr.toString("utf8"),
    status: result.exitCode,
  };
}

export function scratch(): string {
  return mkdtempSync(join(directory, "case-"));
}

/** Real bash on `script` (stdin), in `cwd`, with the environment the interpreter gets. */
export function bash(script: string, cwd: string): { stdout: string; status: number } {
  const ran = spawnSync("/bin/bash", ["--norc", "--noprofile"], {
    cwd,
    input: script,
    env: { PATH, LC_ALL: "C" },
    encoding: "utf8",
  });
  return { stdout: ran.stdout, status: ran.status ?? -1 };
}
