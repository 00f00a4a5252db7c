import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { Registry, top } from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { createHostShellTool } from "@agent-bridle/shell-host";
import type { RatioBenchmark } from "../benchmark.js";

// The host engine's whole call (dispatch, cwd judging, the funnel's environment, spawn,
// capture, envelope) for `true`, against spawning the same bash directly. A top() grant
// engages no backend, so this isolates the engine and funnel, not the launcher.
const shell = createHostShellTool({
  home: tmpdir(),
  tmpdir: tmpdir(),
  baseDir: tmpdir(),
  backend: NONE_BACKEND,
});
const registry = Registry.builder().tool(shell).build();
const grant = registry.mintGrant(top());

function plainBash(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/bash", ["--norc", "--noprofile", "-c", "true"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.resume();
    child.stderr.resume();
    child.once("error", reject);
    child.once("close", () => resolve());
  });
}

export const shellHostTrue: RatioBenchmark = {
  kind: "ratio",
  name: "shell-host-true",
  description:
    "host engine `true` via Registry.dispatch vs a plain `bash --norc --noprofile -c true` spawn",
  grant: "top()",
  mode: "shell-host engine, no backend engaged (top grant), one bash process",
  target: { maxRatio: 1.5 },
  samples: 40,
  subject: async () => {
    await registry.dispatch("shell", { cmd: "true" }, grant);
  },
  baseline: plainBash,
};
