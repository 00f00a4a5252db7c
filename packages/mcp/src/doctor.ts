import {
  type AxisEnforcement,
  BRUSH_COVERAGE,
  brushSupported,
  caveats,
  createHostBackend,
  type EnforcementReport,
  type ExecVia,
  enforcementReport,
  execViaOf,
  FS_AND_EXEC_COVERAGE,
  hostAllowListSupport,
  type LauncherBinary,
  type LauncherProbe,
  locateLauncher,
  NO_COVERAGE,
  type PathProbeReport,
  pathProbeReport,
  probeLauncher,
  registry,
} from "agent-bridle";
import { closeRegistry } from "./close-registry.js";

export interface DoctorReport {
  readonly platform: NodeJS.Platform;
  readonly arch: string;
  readonly node: string;
  readonly backend: {
    readonly kind: string;
    readonly available: boolean;
    readonly landlock_abi?: number | undefined;
    /** Whether `net: { only: [hosts] }` is enforced here, or why not (network.md). */
    readonly host_allow_lists: string;
    readonly detail?: string | undefined;
  };
  readonly launcher:
    | { readonly found: false; readonly error?: string | undefined }
    | {
        readonly found: true;
        readonly verified: true;
        readonly path: string;
        readonly source: LauncherBinary["source"];
        readonly probe?: LauncherProbe | undefined;
        readonly probe_error?: string | undefined;
      };
  /** What each restricted axis would report, per engine, for a grant restricting all four. */
  readonly axes: Readonly<Record<string, EnforcementReport>>;
  /**
   * The engines whose restricted exec would be held by the backend's execute rules alone,
   * not an interceptor (the host engine under Landlock, ADR 0024); absent where none.
   */
  readonly exec_via: Readonly<Record<string, ExecVia>>;
  readonly engines: Readonly<Record<string, string>>;
  /** The bash engine: supported here, and what a real call (`echo`) under a restricted grant did. */
  readonly brush: BrushProbe;
  /** How path and program checks look up the file system here (ADR 0009). */
  readonly path_checks: PathProbeReport;
}

export type BrushProbe =
  | { readonly supported: false; readonly reason: string }
  | {
      readonly supported: true;
      /** The probe call ran (exit 0) in a confined worker. */
      readonly available: boolean;
      readonly sandbox_kind?: string | undefined;
      readonly enforcement?: EnforcementReport | undefined;
      readonly detail?: string | undefined;
    };

/**
 * Runs `echo` through the bash engine under `exec only[echo]`, `net only[]`: what a
 * restricted call gets on this host (the worker, the launcher and the report).
 */
async function probeBrush(): Promise<BrushProbe> {
  if (!brushSupported())
    return { supported: false, reason: `the bash engine is not supported on ${process.platform}` };
  const built = registry({ shell: "brush", files: false, shellOptions: { warm: false } });
  try {
    const envelope = (await built.dispatchOneshot(
      "shell",
      { cmd: "echo ok", cwd: "/", timeout_secs: 15 },
      caveats({ fs_read: "all", fs_write: "all", exec: { only: ["echo"] }, net: { only: [] } }),
    )) as {
      exit_code?: number;
      stdout?: string;
      sandbox_kind?: string;
      enforcement?: EnforcementReport;
      denials?: { reason: string }[];
    };
    const ran = envelope.exit_code === 0 && envelope.stdout === "ok\n";
    return {
      supported: true,
      available: ran,
      sandbox_kind: envelope.sandbox_kind,
      enforcement: envelope.enforcement,
      ...(ran
        ? {}
        : {
            detail:
              envelope.denials?.map((denial) => denial.reason).join("; ") ||
              `exit code ${String(envelope.exit_code)}`,
          }),
    };
  } catch (error) {
    return { supported: true, available: false, detail: (error as Error).message };
  } finally {
    await closeRegistry(built);
  }
}

function brushState(probe: BrushProbe): string {
  if (!probe.supported) return `not supported here (${probe.reason}); the default is shell-safe`;
  if (!probe.available) return `supported, but the probe call did not run: ${probe.detail ?? ""}`;
  return `available, the default shell (--engine brush, [engine] shell = "brush"); probe call ran under ${String(probe.sandbox_kind)}`;
}

/**
 * `bridle doctor`'s exit status: 1 on Linux when the launcher is missing or its probe
 * failed (every restricted shell call would then be refused `ENFORCEMENT_BELOW_FLOOR`),
 * else 0. Elsewhere the launcher is not used.
 */
export function doctorExitCode(
  report: Pick<DoctorReport, "launcher">,
  platform: NodeJS.Platform = process.platform,
): number {
  if (platform !== "linux") return 0;
  const { launcher } = report;
  return launcher.found && launcher.probe_error === undefined ? 0 : 1;
}

/** What this host can enforce: the backend, the launcher and its probe, and the per-axis report. */
export async function doctor(): Promise<DoctorReport> {
  const backend = createHostBackend();
  const probe = await backend.probe();
  let launcher: DoctorReport["launcher"];
  try {
    const binary = await locateLauncher();
    if (binary === undefined) launcher = { found: false };
    else {
      try {
        launcher = { found: true, verified: true, ...binary, probe: await probeLauncher(binary) };
      } catch (error) {
        launcher = {
          found: true,
          verified: true,
          ...binary,
          probe_error: (error as Error).message,
        };
      }
    }
  } catch (error) {
    launcher = { found: false, error: (error as Error).message };
  }
  const cwd = process.cwd();
  const restricted = caveats({
    fs_read: { only: [cwd] },
    fs_write: { only: [cwd] },
    exec: { only: ["ls"] },
    net: { only: [] },
  });
  const applied = probe.available
    ? {
        kind: backend.kind,
        ...(probe.landlockAbi === undefined ? {} : { landlockAbi: probe.landlockAbi }),
      }
    : { kind: "none" as const };
  const brush = await probeBrush();
  return {
    platform: process.platform,
    arch: process.arch,
    node: process.version,
    backend: {
      kind: backend.kind,
      available: probe.available,
      landlock_abi: probe.landlockAbi,
      host_allow_lists: hostAllowListSupport(backend.kind, probe),
      detail: probe.detail,
    },
    launcher,
    axes: {
      // The bash engine checks every spawn itself (interceptor); files and network only
      // the backend bounds.
      "shell-brush": enforcementReport(restricted, applied, BRUSH_COVERAGE),
      // The safe-subset engine checks every program and path before anything runs.
      "shell-safe": enforcementReport(restricted, applied, FS_AND_EXEC_COVERAGE),
      // The host engine checks nothing itself: only the backend bounds it.
      "sandbox-host": enforcementReport(restricted, applied, NO_COVERAGE),
      // The fs tools check every operation in-process and spawn nothing.
      "fs-tools": enforcementReport(
        caveats({ fs_read: { only: [cwd] }, fs_write: { only: [cwd] }, exec: "all", net: "all" }),
        { kind: "none" },
        FS_AND_EXEC_COVERAGE,
      ),
    },
    exec_via: viaExecuteRules(execViaOf(restricted, applied, NO_COVERAGE)),
    engines: {
      "shell-brush": brushState(brush),
      "shell-safe": `available (${brush.supported ? "" : "the default here; "}--engine safe, [engine] shell = "safe")`,
      "sandbox-host": 'available (opt-in: --engine host, [engine] shell = "host")',
    },
    brush,
    path_checks: await pathProbeReport(),
  };
}

function viaExecuteRules(via: ExecVia | undefined): Readonly<Record<string, ExecVia>> {
  return via === undefined ? {} : { "sandbox-host": via };
}

function strengthNote(strength: AxisEnforcement | undefined, via?: ExecVia): string {
  if (via === "execute_rules")
    return "the kernel's execute rules, no interceptor (ld.so can still run a readable ELF)";
  if (strength === "kernel") return "the kernel holds it";
  if (strength === "interceptor") return "checked before each use, not by the kernel";
  if (strength === "advisory") return "NOT enforced (the default floor refuses such grants)";
  return "";
}

/** The readable form of the doctor report. */
export function renderDoctor(report: DoctorReport): string {
  const lines = [`host: ${report.platform} ${report.arch}, node ${report.node}`];
  lines.push(
    `backend: ${report.backend.kind} — ${report.backend.available ? "available" : "unavailable"}${report.backend.landlock_abi === undefined ? "" : `, Landlock ABI ${report.backend.landlock_abi}`}${!report.backend.available && report.backend.detail ? ` (${report.backend.detail})` : ""}`,
  );
  lines.push(`host allow-lists (net only[hosts]): ${report.backend.host_allow_lists}`);
  const { launcher } = report;
  if (!launcher.found) {
    lines.push(`launcher: not found${launcher.error ? ` (${launcher.error})` : ""}`);
    if (process.platform === "linux")
      lines.push(
        "  every restricted shell call will be refused (ENFORCEMENT_BELOW_FLOOR): reinstall @agent-bridle/sandbox, and check that its bridle-launch is executable",
      );
  } else {
    lines.push(`launcher: ${launcher.path} (${launcher.source}, checksum verified)`);
    if (launcher.probe) {
      const p = launcher.probe;
      lines.push(
        `  Landlock ABI: ${p.landlock_abi === 0 ? "unavailable" : p.landlock_abi}`,
        `  seccomp: ${p.seccomp ? "yes" : "no"}`,
        `  user namespaces: ${p.user_namespaces ? "yes" : "no"}`,
        `  pid namespaces: ${p.pid_namespaces ? "yes" : "no"}`,
        `  process cap (pids): ${p.max_procs}`,
        `  memory cap (whole tree): ${p.memory_limit === "cgroup" ? "cgroup" : "none (no writable memory cgroup: not bound)"}`,
        "  layers (kernel-boundary.md §2, each set up for real in a throw-away target):",
        ...Object.entries(p.layers).map(
          ([layer, held]) => `    ${layer.padEnd(13)} ${held ? "ok" : "MISSING"}`,
        ),
        ...(p.layer_error ? [`    first failure: ${p.layer_error}`] : []),
      );
    } else if (launcher.probe_error) {
      lines.push(`  probe failed: ${launcher.probe_error}`);
    }
  }
  lines.push(
    "per-axis report for a grant restricting every axis (fs to this directory, exec only[ls], net only[]):",
  );
  for (const [engine, axes] of Object.entries(report.axes)) {
    lines.push(`  ${engine}:`);
    for (const [axis, strength] of Object.entries(axes)) {
      const via = axis === "exec" ? report.exec_via[engine] : undefined;
      lines.push(
        `    ${axis.padEnd(8)} ${String(strength).padEnd(11)} ${strengthNote(strength, via)}`,
      );
    }
  }
  const lookups =
    report.path_checks.mode === "in-process" ? "in-process lookups" : "thread-pool lookups";
  lines.push(`path checks: ${lookups} (${report.path_checks.reason})`);
  lines.push("engines:");
  for (const [engine, state] of Object.entries(report.engines)) lines.push(`  ${engine}: ${state}`);
  return `${lines.join("\n")}\n`;
}
