import { type FileHandle, open } from "node:fs/promises";
import { DEV_NULL, type Denial, isNullDevice } from "@agent-bridle/core";
import type { UtilityName } from "@agent-bridle/coreutils";
import type { StageStdio } from "@agent-bridle/sandbox";
import { type AdmittedRedirection, type AdmittedStage, expandPattern, Refused } from "./admit.js";
import type { ExecutionContext } from "./execution-context.js";

/** A stage ready to run: its argv, where its 0/1/2 go, and whether it is a carried utility. */
export interface RunPlan {
  readonly kind: "run";
  /** `argv[0]` is the absolute program, or the logical name of a carried utility. */
  readonly argv: readonly string[];
  readonly carried: UtilityName | undefined;
  readonly stdio: StageStdio;
}

/** A stage that fails before it starts, as in bash (not found, a redirect that cannot open). */
export interface FailPlan {
  readonly kind: "fail";
  readonly status: number;
  readonly message: string;
}

export type StagePlan = RunPlan | FailPlan;

/** A redirect target the engine opened for a stage (closed once the pipeline ran). */
export interface OpenedTarget {
  readonly handle: FileHandle;
  /** Opened for the stage to write (`>`, `>>`), not to read. */
  readonly writing: boolean;
}

const FLAGS_READ = "r";
const FLAGS_WRITE = "a";

/** Opens one redirect target through the mediated open (or the device sink). */
async function openTarget(
  redirection: Extract<AdmittedRedirection, { kind: "file" }>,
  context: ExecutionContext,
): Promise<{ ok: true; handle: FileHandle } | { ok: false; denial: Denial }> {
  const reading = redirection.operator === "<";
  if (isNullDevice(redirection.path)) {
    return { ok: true, handle: await open(DEV_NULL, reading ? FLAGS_READ : FLAGS_WRITE) };
  }
  const decision = reading
    ? await context.cx.openPathRead(redirection.path, { baseDir: context.cwd })
    : await context.cx.openPathWrite(redirection.path, {
        baseDir: context.cwd,
        append: redirection.operator === ">>",
      });
  return decision.ok ? { ok: true, handle: decision.value.handle } : decision;
}

const MISSING = new Set(["FS_NOT_FOUND", "FS_CANNOT_RESOLVE"]);

/**
 * Opens the stage's redirections in source order, as bash does, and works out where its
 * 0/1/2 end up: `2>&1` takes whatever 1 is at that point (`2>&1 > f` keeps stderr on
 * the pipe, `> f 2>&1` sends both to `f`). The first redirection that fails makes the
 * stage fail with status 1 (files opened before it stay created, as in bash).
 */
export async function planStage(
  stage: AdmittedStage,
  context: ExecutionContext,
  opened: OpenedTarget[],
  denials: Denial[],
): Promise<StagePlan> {
  const program = stage.program ?? stage.carried;
  if (program === undefined) {
    return { kind: "fail", status: 127, message: `${stage.spelled}: command not found` };
  }
  const argv = [program];
  for (const argument of stage.args) {
    if (argument.kind === "fixed") {
      argv.push(argument.value);
      continue;
    }
    try {
      argv.push(...(await expandPattern(argument, context)));
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      denials.push(error.denial);
      return { kind: "fail", status: 1, message: `${argument.source}: ${error.denial.reason}` };
    }
  }
  let stdin: number | undefined;
  let stdout: number | undefined;
  let stderr: number | "stdout" | undefined;
  for (const redirection of stage.redirections) {
    if (redirection.kind === "duplicate") {
      stderr = stdout ?? "stdout";
      continue;
    }
    const result = await openTarget(redirection, context);
    if (!result.ok) {
      const missing = MISSING.has(result.denial.code);
      if (!missing) denials.push(result.denial);
      const why = missing
        ? "No such file or directory"
        : `Permission denied (${result.denial.reason})`;
      return { kind: "fail", status: 1, message: `${redirection.path}: ${why}` };
    }
    opened.push({ handle: result.handle, writing: redirection.operator !== "<" });
    const fd = result.handle.fd;
    if (redirection.fd === 0) stdin = fd;
    else if (redirection.fd === 1) stdout = fd;
    else stderr = fd;
  }
  return {
    kind: "run",
    argv,
    carried: stage.program === undefined ? stage.carried : undefined,
    stdio: { stdin, stdout, stderr },
  };
}
