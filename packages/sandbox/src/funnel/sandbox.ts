import {
  type CallAuditSink,
  createOutputSession,
  type Denial,
  type EnforcementReport,
  type EngineCoverage,
  type ExecVia,
  enforcementReport,
  execViaOf,
  type FloorShortfall,
  type SandboxKind,
  type ShellOutputObserver,
  type ToolContext,
  unenforceableAxis,
} from "@agent-bridle/core";
import type { Backend, BackendPrepareRequest, PreparedBackend } from "../backend/backend.js";
import { floorDenial } from "../backend/floor-denial.js";
import { hostAllowList } from "../backend/host-allow-list.js";
import { NONE_BACKEND } from "../backend/none-backend.js";
import { DEFAULT_RESOURCE_LIMITS, type ResourceLimits } from "../backend/resource-limits.js";
import { selectBackend } from "../backend/select-backend.js";
import {
  createEgressProxy,
  type EgressProxy,
  type EgressProxyOptions,
} from "../network/egress-proxy.js";
import { type NetTestHooks, systemResolver, testResolver } from "../network/host-resolver.js";
import { isInternalAddress } from "../network/internal-address.js";
import { netTestHooksOf } from "../network/net-test-hooks.js";
import { admitStages } from "./admit-program.js";
import { assertLaunchShape } from "./assert-launch-shape.js";
import { buildChildEnvironment } from "./child-environment.js";
import { HUGE_PAGES_ENVIRONMENT, HUGE_PAGES_READ_PATHS } from "./huge-pages.js";
import { descriptorSlots, launchStages } from "./launch-stages.js";
import {
  checkGitIdentity,
  createPrivateHome,
  type GitIdentity,
  homeIsGranted,
} from "./private-home.js";
import { createPrivateTempDir, type PrivateTempDir } from "./private-temp-dir.js";
import { nothingStarted } from "./run-result.js";
import type { LaunchHold, SpawnResult, StageStdio } from "./spawn-types.js";

export interface SandboxOptions {
  /** The L3 mechanism this host offers; default `none`. */
  readonly backend?: Backend | undefined;
  /**
   * The children's `HOME` when the call may read it (inside a granted `fs_read` root, or
   * `fs_read: "all"`); otherwise each call gets a private home in its own directory.
   */
  readonly home: string;
  /** The git identity of a private home (default `DEFAULT_GIT_IDENTITY`). */
  readonly gitIdentity?: GitIdentity | undefined;
  /** The children's `TMPDIR`, and where private temp directories are made. */
  readonly tmpdir: string;
  /**
   * Limits for every spawned tree, over `DEFAULT_RESOURCE_LIMITS`: a limit not given
   * keeps its default, one given as `undefined` is not applied.
   */
  readonly limits?: ResourceLimits | undefined;
  /** Concurrent connections of one call through its egress proxy (default 32). */
  readonly maxNetConnections?: number | undefined;
  /**
   * Test harness only (network.md, "Testing without the internet"): the egress proxy
   * resolves these names to these loopback servers and nothing else. No configuration
   * file maps to it. (An engine's sandbox gets them from `bindNetTestHooks` on its
   * backend object.)
   */
  readonly netTestHooks?: NetTestHooks | undefined;
}

export interface SandboxRunRequest {
  /** One argv per stage, as spelled (never a shell string); stages are piped. */
  readonly stages: readonly (readonly string[])[];
  readonly cwd: string;
  /** Caller variables (the denylist applies). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  readonly home?: string | undefined;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal | undefined;
  readonly stdin?: number | undefined;
  readonly extraDescriptors?: readonly number[] | undefined;
  /** Per-stage descriptor placement (redirections), by stage index; see `StageStdio`. */
  readonly stageStdio?: readonly (StageStdio | undefined)[] | undefined;
  /** Make a private 0700 temp directory for this call (the child's `TMPDIR`). */
  readonly privateTmp?: boolean | undefined;
  /** Programs the engine runs besides granted ones (execute rules), e.g. `/usr/bin/bash`. */
  readonly runtimeExecutables?: readonly string[] | undefined;
  /** Files the engine's runtime reads (a bundled worker or entry file), readable under Landlock. */
  readonly runtimeReadPaths?: readonly string[] | undefined;
  /**
   * The engine's runtime copies large buffers while it starts (a Node startup snapshot):
   * glibc's malloc backs them with transparent huge pages where the host offers them
   * (`huge-pages.ts`). Set by an engine for its own runtime, never from a caller.
   */
  readonly hugePages?: boolean | undefined;
  readonly observer?: ShellOutputObserver | undefined;
  /**
   * Where this run's audit records go (the program's spawn, its connections, the report);
   * default the context's. A pre-started worker records to the call that takes it.
   */
  readonly audit?: CallAuditSink | undefined;
  /**
   * Awaited once the floor is met and every stage's program admitted, before anything is
   * created or started (the registry's `InvokeOptions.approve`): a rejection propagates
   * and nothing runs.
   */
  readonly approve?: (() => Promise<void>) | undefined;
  /**
   * Called once the program runs, with what the result will report (an idle warm worker
   * unrefs itself; an engine that answers before the tree is reaped has its facts).
   */
  readonly onLaunched?: ((hold: LaunchHold, facts: LaunchedFacts) => void) | undefined;
}

/** What `onLaunched` is told: the result's facts, the private temp directory, the limits. */
export type LaunchedFacts = SandboxRunFacts & {
  readonly privateTmpDir?: string;
  /** `proxy`: a host allow-list's connections go through the call's egress proxy. */
  readonly netVia?: "proxy";
  /** `execute_rules`: the backend's execute rules alone held restricted exec (ADR 0024). */
  readonly execVia?: ExecVia;
  /**
   * Denials known only while the tree runs or once it is gone, so far (an engine that
   * answers early asks): connections the egress proxy refused, and write-blocked
   * configuration a program planted, moved aside when the tree ended.
   */
  readonly lateDenials?: () => readonly Denial[];
  /** The limits the backend was asked to apply (absent: it applies none). */
  readonly limits?: ResourceLimits;
};

export interface SandboxRunFacts {
  readonly report: EnforcementReport;
  readonly sandboxKind: SandboxKind;
  readonly unbridled: boolean;
}

export type SandboxRunOutcome =
  | (SandboxRunFacts & {
      readonly kind: "ran";
      readonly result: SpawnResult;
      /** The private temp directory this call had (already removed), disclosed. */
      readonly privateTmpDir?: string | undefined;
      /** Blocked entries the backend could not hide from spawned programs. */
      readonly unmasked: readonly string[];
      /**
       * The limits the backend was asked to apply to the tree (the launcher's; it caps
       * memory and processes only where the host lets it), or `undefined` when it
       * applies none (`none`, Seatbelt).
       */
      readonly limits: ResourceLimits | undefined;
      /** `proxy`: the call's network went through its egress proxy (a host allow-list). */
      readonly netVia?: "proxy" | undefined;
      /** `execute_rules`: the backend's execute rules alone held restricted exec (ADR 0024). */
      readonly execVia?: ExecVia | undefined;
      /**
       * Connections the egress proxy refused (`NET_HOST_NOT_GRANTED`, one per host and
       * port), then write-blocked configuration a program planted (`FS_BLOCKED`, moved aside).
       */
      readonly lateDenials?: readonly Denial[] | undefined;
    })
  | (SandboxRunFacts & {
      readonly kind: "refused";
      readonly denial: Denial;
      /** Set when the refusal is the strength floor's: which axis fell short. */
      readonly shortfall?: FloorShortfall | undefined;
    })
  | (SandboxRunFacts & { readonly kind: "not-found"; readonly program: string });

export interface Sandbox {
  readonly backend: Backend;
  /** The limits asked of the backend for every tree (the defaults with the host's over them). */
  readonly limits: ResourceLimits;
  run(
    cx: ToolContext,
    request: SandboxRunRequest,
    options: { readonly coverage: EngineCoverage },
  ): Promise<SandboxRunOutcome>;
}

/** The call's egress proxy when its `net` is a host allow-list (network.md §2). */
function egressProxyFor(
  caveats: ToolContext["caveats"],
  testHooks: NetTestHooks | undefined,
  options: Pick<EgressProxyOptions, "audit" | "toolName" | "maxConnections">,
): Promise<EgressProxy> | undefined {
  const hosts = hostAllowList(caveats);
  if (hosts === undefined) return undefined;
  const resolver = testHooks
    ? testResolver(testHooks, isInternalAddress)
    : systemResolver(isInternalAddress);
  return createEgressProxy({ ...options, grant: hosts, resolver });
}

function refuseSpawn(audit: CallAuditSink, tool: string, argv: readonly string[], denial: Denial) {
  audit.record({ type: "spawn", tool, argv: [...argv], decision: "denied", code: denial.code });
}

/**
 * The funnel entry engines use: select the backend, check the floor, admit every stage's
 * program (exec identity, audited), build the environment, launch, report. Every refusal
 * happens before anything is spawned and is returned in-band.
 */
/** The environment of the call's processes (`TMPDIR` the private one if it was asked for). */
function childEnvironmentOf(
  request: SandboxRunRequest,
  home: string,
  temp: PrivateTempDir | undefined,
  tmpdir: string,
  proxyEnv: Readonly<Record<string, string>> | undefined,
) {
  return buildChildEnvironment({
    home,
    tmpdir: (request.privateTmp ? temp?.path : undefined) ?? tmpdir,
    callerEnv: request.env,
    runtimeEnv: request.hugePages ? HUGE_PAGES_ENVIRONMENT : undefined,
    proxyEnv,
  });
}

/** What the backend is asked to prepare for one call's stages. */
function prepareRequestOf(
  cx: ToolContext,
  request: SandboxRunRequest,
  call: {
    readonly coverage: EngineCoverage;
    readonly temp: PrivateTempDir | undefined;
    readonly limits: ResourceLimits;
    readonly netProxy: BackendPrepareRequest["netProxy"];
  },
): BackendPrepareRequest {
  return {
    caveats: cx.caveats,
    pathPolicy: cx.pathPolicy,
    coverage: call.coverage,
    extraWriteRoots: call.temp ? [call.temp.path] : [],
    runtimeExecutables: request.runtimeExecutables ?? [],
    runtimeReadPaths: request.hugePages
      ? [...(request.runtimeReadPaths ?? []), ...HUGE_PAGES_READ_PATHS]
      : request.runtimeReadPaths,
    keepFds: Array.from({ length: descriptorSlots(request) }, (_, index) => 3 + index),
    cwd: request.cwd,
    limits: call.limits,
    netProxy: call.netProxy,
  };
}

export function createSandbox(options: SandboxOptions): Sandbox {
  checkGitIdentity(options.gitIdentity);
  const available = options.backend ?? NONE_BACKEND;
  const testHooks = options.netTestHooks ?? netTestHooksOf(options.backend);
  const limits: ResourceLimits = Object.freeze({ ...DEFAULT_RESOURCE_LIMITS, ...options.limits });
  async function run(
    cx: ToolContext,
    request: SandboxRunRequest,
    { coverage }: { readonly coverage: EngineCoverage },
  ): Promise<SandboxRunOutcome> {
    assertLaunchShape(request);
    const caveats = cx.caveats;
    const audit = request.audit ?? cx.audit;
    const selection = await selectBackend(available, caveats, coverage, cx.strengthFloor);
    const facts = {
      report: selection.report,
      sandboxKind: selection.sandboxKind,
      unbridled: selection.unbridled,
    };
    // A refusal before the launch started no sandbox: its facts claim no strength.
    const refusedFacts = nothingStarted(selection.unbridled);
    if (selection.shortfall !== undefined) {
      const denial = floorDenial(selection.shortfall);
      refuseSpawn(audit, cx.toolName, request.stages[0] ?? [], denial);
      return { ...refusedFacts, kind: "refused", denial, shortfall: selection.shortfall };
    }
    const admission = await admitStages(request.stages, {
      exec: caveats.exec,
      cwd: request.cwd,
      audit,
      toolName: cx.toolName,
      runtimeExecutables: request.runtimeExecutables,
    });
    if (admission.kind === "denied") {
      return { ...refusedFacts, kind: "refused", denial: admission.denial };
    }
    if (admission.kind === "not-found") {
      return { ...refusedFacts, kind: "not-found", program: admission.spelled };
    }
    const argvs = admission.stages;
    await request.approve?.();
    let temp: PrivateTempDir | undefined;
    let prepared: PreparedBackend | undefined;
    let proxy: EgressProxy | undefined;
    const planted: Denial[] = [];
    const lateDenials = () => [...(proxy?.denials() ?? []), ...planted];
    const configuredHome = request.home ?? options.home;
    const ownHome = !homeIsGranted(configuredHome, caveats);
    try {
      if (request.privateTmp || ownHome) temp = await createPrivateTempDir(options.tmpdir);
      const home =
        temp && ownHome ? await createPrivateHome(temp.path, options.gitIdentity) : configuredHome;
      if (selection.applied.netProxy === true) {
        proxy = await egressProxyFor(caveats, testHooks, {
          audit,
          toolName: cx.toolName,
          maxConnections: options.maxNetConnections,
        });
      }
      prepared = await selection.backend.prepare(
        prepareRequestOf(cx, request, { coverage, temp, limits, netProxy: proxy?.ports }),
      );
      // Only the launcher applies limits, and reports the ones a tree ran into.
      const launched = selection.backend.kind === "landlock";
      // The projection used for admission is the one actually applied.
      const report = enforcementReport(caveats, prepared.applied, coverage);
      const execVia = execViaOf(caveats, prepared.applied, coverage);
      const shortfall = selection.unbridled
        ? undefined
        : unenforceableAxis(caveats, report, cx.strengthFloor);
      const appliedFacts = { ...facts, report, sandboxKind: prepared.applied.kind };
      if (shortfall !== undefined) {
        const denial = floorDenial(shortfall);
        refuseSpawn(audit, cx.toolName, argvs[0] ?? [], denial);
        return { ...refusedFacts, kind: "refused", denial, shortfall };
      }
      const session = request.observer
        ? createOutputSession(request.observer, { maxBytesPerStream: request.maxOutputBytes })
        : undefined;
      const result = await launchStages({
        stages: argvs,
        cwd: request.cwd,
        env: childEnvironmentOf(request, home, temp, options.tmpdir, proxy?.environment),
        timeoutMs: request.timeoutMs,
        maxOutputBytes: request.maxOutputBytes,
        signal: request.signal,
        stdin: request.stdin,
        extraDescriptors: request.extraDescriptors,
        stageStdio: request.stageStdio,
        wrapper: prepared,
        session,
        reportsLimits: launched,
        netChannel: proxy ? (child) => proxy?.adopt(child) : undefined,
        onLaunched: request.onLaunched
          ? (hold: LaunchHold) =>
              request.onLaunched?.(hold, {
                ...appliedFacts,
                ...(temp ? { privateTmpDir: temp.path } : {}),
                ...(launched ? { limits } : {}),
                ...(proxy ? { netVia: "proxy" as const } : {}),
                lateDenials,
                ...(execVia === undefined ? {} : { execVia }),
              })
          : undefined,
      });
      // The tree is gone: what its programs planted is moved aside before anyone answers.
      planted.push(...((await prepared.sweep?.()) ?? []));
      audit.record({
        type: "report",
        tool: cx.toolName,
        sandbox_kind: appliedFacts.sandboxKind,
        enforcement: report,
      });
      return {
        ...appliedFacts,
        kind: "ran",
        result,
        ...(temp ? { privateTmpDir: temp.path } : {}),
        unmasked: prepared.unmasked,
        limits: launched ? limits : undefined,
        ...(proxy ? { netVia: "proxy" as const } : {}),
        ...(execVia === undefined ? {} : { execVia }),
        lateDenials: lateDenials(),
      };
    } finally {
      // The tree is gone: the proxy closes its listeners and connections, none outlives it.
      await proxy?.close();
      await prepared?.sweep?.(); // a run that threw: still nothing planted stays
      prepared?.settled?.();
      await temp?.remove();
    }
  }
  return Object.freeze({ backend: available, limits, run });
}
