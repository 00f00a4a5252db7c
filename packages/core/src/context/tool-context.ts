import type { StampedAuditSink } from "../audit/audit-event.js";
import type { Caveats } from "../caveats/caveats.js";
import { checkNet, type NetDecision } from "../caveats/check-net.js";
import type { EnforcementFloor } from "../enforcement/enforcement-floor.js";
import type { SandboxKind } from "../enforcement/sandbox-kind.js";
import type { HumanGate } from "../envelope/disclosure.js";
import { checkExec, type ExecDecision, type ProgramIdentity } from "../exec/check-exec.js";
import { judgePath, type PathDecision } from "../paths/judge-path.js";
import {
  type OpenDecision,
  openPathRead,
  openPathWrite,
  type WriteOpenOptions,
} from "../paths/mediated-open.js";
import type { PathPolicy } from "../paths/path-policy.js";

const MINT = Symbol("tool-context-mint");

export interface ToolContextState {
  readonly toolName: string;
  readonly effective: Caveats;
  readonly sandboxKind: SandboxKind;
  readonly strengthFloor: EnforcementFloor;
  readonly audit: StampedAuditSink;
  readonly pathPolicy: PathPolicy;
  readonly humanGate: HumanGate;
}

/** Where a relative path resolves, and the tool's own allow-list on top of the grant. */
export interface PathCheckOptions {
  readonly baseDir?: string | undefined;
  readonly allowed?: readonly string[] | undefined;
}

/**
 * The only authority a tool receives: the effective caveats (grant ⊓ required) and the
 * checks and mediated opens over them. Minted only by the Gate; no public constructor,
 * no setters. Every denial a check returns also reaches the audit sink.
 */
export class ToolContext {
  readonly #state: ToolContextState;

  constructor(token: typeof MINT, state: ToolContextState) {
    if (token !== MINT) throw new TypeError("ToolContext is minted only by the Gate");
    this.#state = Object.freeze({ ...state });
    Object.freeze(this);
  }

  get toolName(): string {
    return this.#state.toolName;
  }
  get caveats(): Caveats {
    return this.#state.effective;
  }
  get sandboxKind(): SandboxKind {
    return this.#state.sandboxKind;
  }
  get strengthFloor(): EnforcementFloor {
    return this.#state.strengthFloor;
  }
  get audit(): StampedAuditSink {
    return this.#state.audit;
  }
  get pathPolicy(): PathPolicy {
    return this.#state.pathPolicy;
  }
  get humanGate(): HumanGate {
    return this.#state.humanGate;
  }

  #recorded<Decision extends { readonly ok: boolean }>(decision: Decision): Decision {
    if (!decision.ok && "denial" in decision) {
      this.audit.record({
        type: "check-denied",
        tool: this.toolName,
        denial: decision.denial as never,
      });
    }
    return decision;
  }

  async checkExec(program: ProgramIdentity | string): Promise<ExecDecision> {
    const identity = typeof program === "string" ? { spelled: program } : program;
    return this.#recorded(await checkExec(this.caveats.exec, identity));
  }

  checkNet(host: string): NetDecision {
    return this.#recorded(checkNet(this.caveats.net, host));
  }

  async checkPathRead(path: string, options: PathCheckOptions = {}): Promise<PathDecision> {
    return this.#recorded(await judgePath(this.#pathRequest(path, "read", options)));
  }

  async checkPathWrite(path: string, options: PathCheckOptions = {}): Promise<PathDecision> {
    return this.#recorded(await judgePath(this.#pathRequest(path, "write", options)));
  }

  async openPathRead(path: string, options: PathCheckOptions = {}): Promise<OpenDecision> {
    return this.#recorded(await openPathRead(this.#pathRequest(path, "read", options)));
  }

  async openPathWrite(
    path: string,
    options: PathCheckOptions & WriteOpenOptions = {},
  ): Promise<OpenDecision> {
    return this.#recorded(
      await openPathWrite({ ...options, ...this.#pathRequest(path, "write", options) }),
    );
  }

  #pathRequest(path: string, op: "read" | "write", options: PathCheckOptions) {
    return {
      path,
      op,
      baseDir: options.baseDir,
      allowed: options.allowed,
      scope: op === "read" ? this.caveats.fs_read : this.caveats.fs_write,
      policy: this.pathPolicy,
    };
  }
}

/** @internal only the Gate calls this (not exported from the package). */
export function mintToolContext(state: ToolContextState): ToolContext {
  return new ToolContext(MINT, state);
}
