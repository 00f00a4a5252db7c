import type { Denial } from "@agent-bridle/core";
import { createDenial } from "@agent-bridle/core";
import { childProcessRunner, passThroughAccess } from "@agent-bridle-tools/test-kit";
import type { ExternalRunner, ShellAccess } from "../../src/index.js";
import { runBash } from "../../src/index.js";
import { PATH } from "./run.js";

/** One call the interpreter made on its gate. */
export interface GateCall {
  readonly operation: string;
  readonly path: string;
  readonly detail?: unknown;
}

/**
 * A gate over the real filesystem that logs every call and refuses, by policy, the
 * paths (or `exec:<resolved>` names) `deny` says to.
 */
export function recordingGate(deny: (operation: string, path: string) => boolean) {
  const calls: GateCall[] = [];
  const refuse = (operation: string, path: string) => ({
    ok: false as const,
    denial: createDenial(
      operation === "exec" ? "exec" : "open",
      path,
      operation === "exec" ? "EXEC_NOT_GRANTED" : "FS_OUTSIDE_ALLOWED",
      `${operation} of ${path} is not granted`,
    ),
  });
  const gated =
    <Args extends unknown[], T>(operation: string, act: (path: string, ...rest: Args) => T) =>
    (path: string, ...rest: Args) => {
      calls.push({ operation, path, detail: rest[0] });
      if (deny(operation, path)) return Promise.resolve(refuse(operation, path));
      return act(path, ...rest);
    };
  const access: ShellAccess = {
    open: gated("open", passThroughAccess.open),
    openWrite: gated("openWrite", passThroughAccess.openWrite),
    stat: gated("stat", passThroughAccess.stat),
    lstat: gated("lstat", passThroughAccess.lstat),
    // Command resolution probes are recorded (and refused) as `stat`s here.
    statProgram: gated("stat", passThroughAccess.statProgram),
    readdir: gated("readdir", passThroughAccess.readdir),
    readlink: gated("readlink", passThroughAccess.readlink),
    openRedirect: gated("openRedirect", passThroughAccess.openRedirect),
    checkExec: (spelled, resolved) => {
      calls.push({ operation: "exec", path: resolved, detail: spelled });
      if (deny("exec", resolved)) return Promise.resolve(refuse("exec", resolved));
      return passThroughAccess.checkExec(spelled, resolved);
    },
  };
  return { access, calls };
}

/** Run `source` with `access`; the result, the denials recorded and the programs started. */
export async function runGated(source: string, cwd: string, access: ShellAccess) {
  const denials: Denial[] = [];
  const started: string[] = [];
  const runner: ExternalRunner = {
    run: (request) => {
      started.push(request.file);
      return childProcessRunner.run(request);
    },
  };
  const result = await runBash(source, {
    cwd,
    env: { PATH },
    scriptName: "bash",
    runner,
    access,
    onDenial: (denial) => denials.push(denial),
  });
  return {
    stdout: result.stdout.toString("utf8"),
    stderr: result.stderr.toString("utf8"),
    status: result.exitCode,
    denials,
    started,
  };
}
