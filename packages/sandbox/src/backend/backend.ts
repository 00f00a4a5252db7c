import type {
  AppliedBackend,
  Caveats,
  Denial,
  EngineCoverage,
  PathPolicy,
  SandboxKind,
} from "@agent-bridle/core";
import type { LauncherProxyPort } from "../launcher/types.js";
import type { ResourceLimits } from "./resource-limits.js";

/** What a backend can apply on this host, probed once. */
export interface BackendProbe {
  readonly available: boolean;
  /** Landlock ABI of the running kernel (net rules need ≥ 4). */
  readonly landlockAbi?: number | undefined;
  /** A host allow-list's proxy network can be set up (network.md; Landlock ABI ≥ 4). */
  readonly netProxy?: boolean | undefined;
  /** Why it is unavailable, for `bridle doctor` (never model-facing). */
  readonly detail?: string | undefined;
}

export interface BackendPrepareRequest {
  readonly caveats: Caveats;
  readonly pathPolicy: PathPolicy;
  readonly coverage: EngineCoverage;
  /** Roots the funnel itself grants for this call (the private temp directory). */
  readonly extraWriteRoots: readonly string[];
  /** Programs the engine itself runs besides the granted ones (for example `bash`). */
  readonly runtimeExecutables: readonly string[];
  /** Files the engine's own runtime reads besides the runtime closure (a bundled worker). */
  readonly runtimeReadPaths?: readonly string[] | undefined;
  /** Descriptors besides 0, 1, 2 that reach the child. */
  readonly keepFds: readonly number[];
  readonly cwd: string;
  /** Limits for the spawned tree (the host's configuration). */
  readonly limits: ResourceLimits;
  /** A host allow-list's proxy ports in the call's namespace (network.md). */
  readonly netProxy?: readonly LauncherProxyPort[] | undefined;
}

/** A backend set up for one call. */
export interface PreparedBackend {
  readonly applied: AppliedBackend;
  /** The argv actually spawned for a stage (`argv[0]` absolute). */
  wrap(argv: readonly string[], policyFd: number): readonly string[];
  /** The policy handed to the launcher on `policyFd`. */
  readonly policyText?: string | undefined;
  /** The wrapper closes every descriptor not listed before `exec` (the launcher does). */
  readonly closesUnlistedDescriptors: boolean;
  /** The wrapped program is PID 1 of a PID namespace of its own (its death ends the tree). */
  readonly pidNamespace?: boolean | undefined;
  /** The launcher whose spawn server starts the wrapped argv (ADR 0023). */
  readonly server?: string | undefined;
  /** Blocked-path entries the backend could not hide from spawned programs (disclosed). */
  readonly unmasked: readonly string[];
  /**
   * Once the call's tree is gone: write-blocked configuration its programs created where
   * none could be bound read-only, moved aside, one denial each (idempotent).
   */
  sweep?(): Promise<readonly Denial[]>;
  /** The call's spawned tree is gone (the funnel calls it once, whatever the outcome). */
  settled?(): void;
}

/** An L3 mechanism: `none`, the Linux launcher (Landlock), Seatbelt. */
export interface Backend {
  readonly kind: SandboxKind;
  probe(): Promise<BackendProbe>;
  prepare(request: BackendPrepareRequest): Promise<PreparedBackend>;
}
