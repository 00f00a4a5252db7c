import type { SandboxKind } from "./sandbox-kind.js";

/** What the L3 backend actually installed for a run. */
export interface AppliedBackend {
  readonly kind: SandboxKind;
  /** Landlock ABI in force (net rules need ≥ 4). Ignored for other kinds. */
  readonly landlockAbi?: number;
  /** Landlock execute rules installed for a restricted exec axis (default: true). */
  readonly execRules?: boolean;
  /**
   * A host allow-list's network is up: a namespace of its own whose only way out is the
   * engine's egress proxy (network.md). Landlock only; default false.
   */
  readonly netProxy?: boolean;
}

export const NO_BACKEND: AppliedBackend = Object.freeze({ kind: "none" });
