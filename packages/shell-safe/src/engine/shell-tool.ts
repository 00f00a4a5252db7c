import { inspectShell } from "@agent-bridle/bash";
import {
  ConfigurationError,
  createDenial,
  type Denial,
  FS_AND_EXEC_COVERAGE,
  type Tool,
  type ToolEnvelope,
  TRUSTED_PATH,
} from "@agent-bridle/core";
import {
  buildChildEnvironment,
  type CommonShellToolOptions,
  defineShellTool,
  floorDenial,
  type Sandbox,
  type SandboxRunFacts,
  type ShellCall,
  type ShellInvocation,
  selectBackend,
} from "@agent-bridle/sandbox";
import { checkSubset } from "../subset/check-subset.js";
import type { ParseLimits } from "../subset/limits.js";
import type { ShellRefusal } from "../subset/refusal.js";
import {
  type Admission,
  type AdmissionContext,
  type AdmittedScript,
  admitArgv,
  admitScript,
} from "./admit.js";
import { findCarriedRuntime } from "./carried-runtime.js";
import { executeScript } from "./execute.js";
import type { CarriedRuntime } from "./execution-context.js";
import { programLookup } from "./program-lookup.js";
import {
  DEFAULT_SHELL_SAFE_LIMITS,
  type ShellSafeInput,
  type ShellSafeLimits,
  shellSafeInputSchema,
} from "./shell-input.js";

/** A host's explanation of a dynamic script (the facade passes shell-brush's `inspectShell`). */
export type ShellInspector = (source: string) => unknown;

export interface ShellToolOptions extends CommonShellToolOptions<ShellSafeLimits> {
  readonly parseLimits?: Partial<ParseLimits>;
  /**
   * Attaches `shell_inspection` to dynamic-construct refusals; its failures attach
   * nothing. Default: `@agent-bridle/bash`'s `inspectShell` (ADR 0022).
   */
  readonly inspector?: ShellInspector;
  /**
   * Where bare program names are looked up; default core's `TRUSTED_PATH`. A granted
   * utility of the six that is not found there runs as the carried one. For tests
   * (a path that points nowhere) and hosts whose trusted programs live elsewhere.
   */
  readonly searchPath?: string;
}

/** Names an allowlist must not hold (attack catalogue A88): their values would leak. */
const SECRET_NAME = /TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;

function parseDenial(refusal: ShellRefusal): Denial {
  return createDenial("exec", refusal.target, refusal.code, refusal.reason);
}

function inspect(inspector: ShellInspector, source: string) {
  try {
    const inspection = inspector(source);
    return inspection !== null && typeof inspection === "object"
      ? (inspection as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** What a safe-engine call needs besides the request: fixed when the tool is made. */
interface SafeSetting {
  readonly options: ShellToolOptions;
  readonly limits: ShellSafeLimits;
  readonly sandbox: Sandbox;
  readonly allowlist: ReadonlySet<string>;
  readonly carried: () => Promise<CarriedRuntime>;
}

/** An admitted call: everything judged, nothing opened yet. */
interface Admitted {
  readonly script: AdmittedScript;
  readonly cwd: string;
  readonly callerEnv: Record<string, string>;
  readonly preFacts: SandboxRunFacts;
}

/**
 * Steps 1 to 5 (reference §3.6): parse, the working directory, the environment,
 * admission, the floor. Judging only; the first refusal is returned as the invocation.
 */
async function admitCall(
  call: ShellCall<ShellSafeInput>,
  setting: SafeSetting,
): Promise<Admitted | ShellInvocation> {
  const { input, cx } = call;
  const { options, limits, sandbox } = setting;
  // Backend selection (pure facts, no side effect) overlaps parsing.
  const selecting = selectBackend(
    sandbox.backend,
    cx.caveats,
    FS_AND_EXEC_COVERAGE,
    cx.strengthFloor,
  );
  // A refusal before anything ran started no sandbox: it claims no strength.
  const refuse = async (denial: Denial, inspection?: Record<string, unknown>) => {
    await selecting;
    return call.refuse(denial, inspection ? { inspection } : {});
  };
  // 1. Parse (pure): a refusal is in-band, with an inspection for dynamic constructs.
  let parsed: ReturnType<typeof checkSubset> | undefined;
  if (input.cmd !== undefined) {
    parsed = checkSubset(input.cmd, options.parseLimits ? { limits: options.parseLimits } : {});
    if (!parsed.ok) {
      const inspection = parsed.refusal.dynamic
        ? inspect(options.inspector ?? inspectShell, input.cmd)
        : undefined;
      return refuse(parseDenial(parsed.refusal), inspection);
    }
  }
  // 2. The working directory, judged like any path (backend selection meanwhile).
  const lookup = programLookup(options.searchPath ?? TRUSTED_PATH);
  const [cwd, selection] = await Promise.all([call.workingDirectory(), selecting]);
  if (!cwd.ok) return refuse(cwd.denial);
  // 3. Exactly the environment the funnel hands the child: `$VAR`/`~` expand from it.
  const callerEnv: Record<string, string> = { ...input.env, PWD: cwd.path };
  const variables = buildChildEnvironment({
    home: options.home,
    tmpdir: options.tmpdir,
    callerEnv,
  });
  const context: AdmissionContext = {
    cx,
    cwd: cwd.path,
    env: { variables, allowlist: setting.allowlist },
    maxGlobMatches: limits.maxGlobMatches,
    lookup,
  };
  // 4. Admission: programs, expansions, globs, redirect targets (judged, not opened).
  const admission: Admission =
    parsed?.ok === true
      ? await admitScript(parsed.script, context)
      : await admitArgv(input.program as string, input.args ?? [], context);
  if (!admission.ok) return refuse(admission.denial);
  // 5. The floor, before any redirect file is opened (the funnel checks it again).
  if (selection.shortfall !== undefined) return refuse(floorDenial(selection.shortfall));
  const { report, sandboxKind, unbridled } = selection;
  return {
    script: admission.script,
    cwd: cwd.path,
    callerEnv,
    preFacts: { report, sandboxKind, unbridled },
  };
}

/** Step 7: the admitted pipelines through the funnel, observed live. */
async function executeAdmitted(
  call: ShellCall<ShellSafeInput>,
  setting: SafeSetting,
  admitted: Admitted,
): Promise<ShellInvocation> {
  const { limits } = setting;
  const session = call.outputSession();
  let finished = false;
  try {
    const outcome = await executeScript(admitted.script, {
      cx: call.cx,
      sandbox: setting.sandbox,
      cwd: admitted.cwd,
      callerEnv: admitted.callerEnv,
      deadline: call.started + call.timeoutSecs * 1000,
      maxOutputBytes: limits.maxOutputBytes,
      signal: call.signal,
      session,
      maxGlobMatches: limits.maxGlobMatches,
      carriedRuntime: setting.carried,
    });
    const facts = outcome.facts ?? admitted.preFacts;
    if (outcome.refusedBeforeRun !== undefined) {
      return call.refuse(outcome.refusedBeforeRun, { facts });
    }
    finished = !(outcome.timedOut || outcome.cancelled);
    return call.ran(facts, {
      exitCode: outcome.status,
      stdout: outcome.stdout.toString("utf8"),
      stderr: outcome.stderr.toString("utf8"),
      timedOut: outcome.timedOut,
      stdoutTruncated: outcome.stdoutTruncated,
      stderrTruncated: outcome.stderrTruncated,
      denials: outcome.denials,
      limitsExceeded: outcome.limitsExceeded,
      limits: outcome.limits,
    });
  } finally {
    if (finished) session?.finish();
    else session?.cancel();
  }
}

/** Refuses a variable allowlist that names what looks like a secret (attack catalogue A88). */
function checkAllowlist(limits: ShellSafeLimits): void {
  const secret = limits.variableAllowlist.find((name) => SECRET_NAME.test(name));
  if (secret !== undefined) {
    throw new ConfigurationError(
      `the variable allowlist names ${secret}, which looks like a secret (TOKEN, KEY, SECRET, PASSWORD): a script could print or send its value; pass the value in the request env instead`,
    );
  }
}

/**
 * The argv + safe-subset engine (`ShellTool`, reference §3 as spec §7 amends it): parses
 * the script itself (exact-bash-or-refuse), admits everything before anything runs —
 * programs by exec identity, globs with every listed directory judged, redirect
 * targets judged, `cwd`, the strength floor — then runs each pipeline through the
 * `sandbox` funnel with its stages joined by OS pipes.
 */
export function createShellTool(options: ShellToolOptions): Tool<ShellSafeInput, ToolEnvelope> {
  return defineShellTool<ShellSafeInput, ShellSafeLimits>(
    options,
    DEFAULT_SHELL_SAFE_LIMITS,
    ({ limits, sandbox }) => {
      checkAllowlist(limits);
      let carriedRuntime: Promise<CarriedRuntime> | undefined;
      const setting: SafeSetting = {
        options,
        limits,
        sandbox,
        allowlist: new Set(limits.variableAllowlist),
        carried: () => {
          carriedRuntime ??= findCarriedRuntime();
          return carriedRuntime;
        },
      };
      return {
        description:
          "Run a program (program + args) or a simple command line (cmd) without a shell: pipes, ;, &&, ||, quotes, allowlisted $VAR, ~, globs and file redirections, interpreted exactly as bash would. Substitutions, subshells, heredocs, loops and other shell syntax are refused with a reason. Every program, path and glob is checked against the grant before anything runs.",
        inputSchema: shellSafeInputSchema(limits),
        async run(call) {
          const admitted = await admitCall(call, setting);
          if (!("script" in admitted)) return admitted;
          // 6. Everything is checked: the person is asked now, before any file is opened.
          await call.approve?.();
          return executeAdmitted(call, setting, admitted);
        },
      };
    },
  );
}
