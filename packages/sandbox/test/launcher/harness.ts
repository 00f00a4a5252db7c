// Test harness: runs the located bridle-launch directly with a policy on fd 3.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Stream } from "node:stream";
import { afterEach } from "vitest";
import { locateLauncher } from "../../src/launcher/locate.js";
import { renderLauncherPolicy } from "../../src/launcher/policy.js";
import type { LauncherPolicy } from "../../src/launcher/types.js";

export interface LaunchResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Loader, library and system-data paths a dynamically linked program needs to start. */
export const baseRead: readonly string[] = [
  "/usr",
  "/lib",
  "/lib64",
  "/bin",
  "/sbin",
  "/etc/ld.so.cache",
  "/etc/localtime",
];

export async function launcherPath(): Promise<string> {
  const binary = await locateLauncher();
  if (binary === undefined) throw new Error("no bridle-launch: run scripts/build-launcher.mjs");
  return binary.path;
}

const made: string[] = [];
afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

/** A fresh directory under the OS temp dir, removed after the test. */
export function tempDir(): string {
  const path = mkdtempSync(join(tmpdir(), "bridle-launch-test-"));
  made.push(path);
  return path;
}

export interface LaunchOptions {
  /** Extra stdio entries from index 4 on (index 3 carries the policy). */
  readonly extraStdio?: readonly (Stream | number | "pipe" | "ignore")[];
  /** Called once the launcher is running (e.g. to kill it). */
  readonly onSpawn?: (pid: number) => void;
}

export function launch(
  launcher: string,
  policy: LauncherPolicy | string,
  argv: readonly string[],
  options: LaunchOptions = {},
): Promise<LaunchResult> {
  const text = typeof policy === "string" ? policy : renderLauncherPolicy(policy);
  const child = spawn(launcher, ["--policy-fd", "3", "--", ...argv], {
    stdio: ["ignore", "pipe", "pipe", "pipe", ...(options.extraStdio ?? [])],
    detached: true,
    env: { PATH: "/usr/bin:/bin", LC_ALL: "C" },
  });
  const policyPipe = child.stdio[3] as NodeJS.WritableStream;
  policyPipe.end(text);
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
