import {
  type Denial,
  deniedInvocation,
  type EnforcementReport,
  enforcementReport,
  FS_AND_EXEC_COVERAGE,
  type Invocation,
  NO_BACKEND,
  ran,
  SCHEMA_VERSION,
  type ToolContext,
} from "@agent-bridle/core";

/**
 * The fs tools' result shape (spec §4): `{schema_version, sandbox_kind, enforcement?,
 * elapsed_ms, denied?, denials?, result?}`, exactly one of `result` and `denials`.
 */
export interface FsToolResult<Result> {
  readonly schema_version: typeof SCHEMA_VERSION;
  readonly sandbox_kind: "none";
  readonly enforcement?: EnforcementReport;
  readonly elapsed_ms: number;
  readonly denied?: true;
  readonly denials?: readonly Denial[];
  readonly result?: Result;
}

/**
 * The axes an fs tool touches: it never spawns a program or opens a connection, so `exec`
 * and `net` are not its to report (issue 17 point 10).
 */
function fsAxesOnly(report: EnforcementReport): EnforcementReport {
  return {
    ...(report.fs_read === undefined ? {} : { fs_read: report.fs_read }),
    ...(report.fs_write === undefined ? {} : { fs_write: report.fs_write }),
  };
}

/**
 * The facts of one call that every result carries. The tools run in-process and apply
 * no kernel backend (`sandbox_kind` `none`); they check every file operation themselves,
 * so each restricted fs axis is reported `interceptor` (spec §3); `exec` and `net`,
 * which they never use, are not reported.
 */
export class CallRecord {
  readonly #started = performance.now();
  constructor(readonly cx: ToolContext) {}

  #common() {
    const enforcement = fsAxesOnly(
      enforcementReport(this.cx.caveats, NO_BACKEND, FS_AND_EXEC_COVERAGE),
    );
    return {
      schema_version: SCHEMA_VERSION,
      sandbox_kind: "none" as const,
      ...(Object.keys(enforcement).length > 0 ? { enforcement: { ...enforcement } } : {}),
      elapsed_ms: Math.max(0, Math.round(performance.now() - this.#started)),
    };
  }

  /** A result: the call ran (charged). */
  ran<Result>(result: Result): Invocation<FsToolResult<Result>> {
    return ran({ ...this.#common(), result });
  }

  /**
   * A refusal, recorded to the audit sink. Before any effect it is an in-band denial (not
   * charged); `afterEffect` marks a refusal that came after something was changed
   * (charged, as a run with a denial).
   */
  denied<Result>(denial: Denial, afterEffect = false): Invocation<FsToolResult<Result>> {
    this.cx.audit.record({ type: "check-denied", tool: this.cx.toolName, denial });
    const value: FsToolResult<Result> = { ...this.#common(), denied: true, denials: [denial] };
    return afterEffect ? ran(value) : deniedInvocation(value);
  }
}
