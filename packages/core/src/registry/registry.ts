import {
  type AuditSink,
  callAuditSink,
  containAuditSink,
  NULL_AUDIT_SINK,
  type StampedAuditSink,
} from "../audit/audit-event.js";
import type { Caveats } from "../caveats/caveats.js";
import type { AxisEnforcement } from "../enforcement/axis-enforcement.js";
import {
  DEFAULT_FLOOR,
  type EnforcementFloor,
  floorFromScalar,
  joinFloors,
} from "../enforcement/enforcement-floor.js";
import { BridleError } from "../errors/bridle-error.js";
import { DeniedError } from "../errors/denied-error.js";
import { RegistryError } from "../errors/registry-error.js";
import { ToolFailedError } from "../errors/tool-failed-error.js";
import { Gate } from "../gate/gate.js";
import { Grant, mintGrant } from "../grant/grant.js";
import type { ShellOutputObserver } from "../observer/shell-output-observer.js";
import { defaultPathPolicy, type PathPolicy } from "../paths/path-policy.js";
import { resolvePathPolicy } from "../paths/resolve-path-policy.js";
import type { Tool } from "../tool/tool.js";
import { type ApprovalHook, ApprovalRefusal, askApproval } from "./approval.js";
import { approvalDenialEnvelope } from "./approval-denial.js";
import { type ToolDefinitionJson, toolDefinitionOf } from "./tool-definitions.js";
import type { BuiltInToolName, ToolResults } from "./tool-results.js";
import { validateArguments } from "./validate-arguments.js";

export interface RegistryConfig {
  readonly tools: ReadonlyMap<string, Tool>;
  readonly generation: number;
  readonly floor: EnforcementFloor;
  readonly audit: AuditSink | undefined;
  readonly approval: ApprovalHook | undefined;
  readonly pathPolicy: PathPolicy;
}

export interface DispatchOptions {
  readonly signal?: AbortSignal;
  /**
   * Live output of this call only (spec §8), delivered by shell tools in addition to the
   * observer they were built with. Presentation only: it never changes authorization or
   * the envelope. Use it to stream one call's output to one client.
   */
  readonly observer?: ShellOutputObserver | undefined;
}

/**
 * Refuses to run a tool unless the call is covered by a grant. Built only through
 * `Registry.builder()`. Budget rules (reference §1.6): unknown tool, invalid arguments,
 * budget, generation, approval refusals and pre-run denials are not charged; a call
 * that ran (whatever its outcome) is.
 */
export class Registry implements AsyncDisposable {
  readonly #config: RegistryConfig;
  readonly #audit: AuditSink;
  #closed = false;
  #nextCallId = 1;
  /**
   * The path policy with its entries at their real locations, resolved once per
   * registry (on first use) instead of on every path check: a blocked entry that
   * becomes a link later is seen at its old real location until the registry is rebuilt.
   */
  #resolvedPolicy: Promise<PathPolicy> | undefined;

  /** @internal use `Registry.builder()`. */
  constructor(config: RegistryConfig, token: symbol) {
    if (token !== BUILD) throw new TypeError("use Registry.builder() to build a Registry");
    this.#config = config;
    this.#audit = config.audit ? containAuditSink(config.audit) : NULL_AUDIT_SINK;
    Object.freeze(this);
  }

  static builder(): RegistryBuilder {
    return new RegistryBuilder();
  }

  get generation(): number {
    return this.#config.generation;
  }

  toolNames(): string[] {
    return [...this.#config.tools.keys()].sort();
  }

  contains(name: string): boolean {
    return this.#config.tools.has(name);
  }

  /** `{name, description, inputSchema, annotations}` per tool, sorted by name. */
  toolDefinitions(): ToolDefinitionJson[] {
    return this.toolNames().map((name) => toolDefinitionOf(this.#config.tools.get(name) as Tool));
  }

  /**
   * A grant for these caveats with a fresh budget: `Caveats` only (a grant in its JSON
   * shape goes through `parseCaveats` first), checked again at run time for callers
   * without types (`ConfigurationError`, `CONFIG_INVALID_CAVEATS`).
   */
  mintGrant(caveats: Caveats): Grant {
    return mintGrant(caveats);
  }

  /**
   * Runs the tool `name` under `grant`. A built-in tool's name (`ToolResults`) types the
   * result; any other name resolves to `unknown`, to be narrowed by the caller.
   */
  dispatch<Name extends BuiltInToolName>(
    name: Name,
    args: unknown,
    grant: Grant,
    options?: DispatchOptions,
  ): Promise<ToolResults[Name]>;
  dispatch(name: string, args: unknown, grant: Grant, options?: DispatchOptions): Promise<unknown>;
  dispatch(
    name: string,
    args: unknown,
    grant: Grant,
    options: DispatchOptions = {},
  ): Promise<unknown> {
    return this.#dispatch(name, args, grant, this.#config.floor, options);
  }

  /** Dispatch with a floor raised by a scalar for exec and net (fs stays kernel). */
  dispatchWithStrengthFloor<Name extends BuiltInToolName>(
    name: Name,
    args: unknown,
    grant: Grant,
    scalar: AxisEnforcement,
    options?: DispatchOptions,
  ): Promise<ToolResults[Name]>;
  dispatchWithStrengthFloor(
    name: string,
    args: unknown,
    grant: Grant,
    scalar: AxisEnforcement,
    options?: DispatchOptions,
  ): Promise<unknown>;
  dispatchWithStrengthFloor(
    name: string,
    args: unknown,
    grant: Grant,
    scalar: AxisEnforcement,
    options: DispatchOptions = {},
  ): Promise<unknown> {
    return this.#dispatch(
      name,
      args,
      grant,
      joinFloors(this.#config.floor, floorFromScalar(scalar)),
      options,
    );
  }

  /** No persistent budget: `at_most(0)` refuses, anything else admits exactly this call. */
  dispatchOneshot<Name extends BuiltInToolName>(
    name: Name,
    args: unknown,
    caveats: Caveats,
    options?: DispatchOptions,
  ): Promise<ToolResults[Name]>;
  dispatchOneshot(
    name: string,
    args: unknown,
    caveats: Caveats,
    options?: DispatchOptions,
  ): Promise<unknown>;
  dispatchOneshot(
    name: string,
    args: unknown,
    caveats: Caveats,
    options: DispatchOptions = {},
  ): Promise<unknown> {
    return this.dispatch(name, args, this.mintGrant(caveats), options);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled([...this.#config.tools.values()].map((tool) => tool.close?.()));
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #refuse(audit: StampedAuditSink, tool: string, error: BridleError): never {
    audit.record({ type: "dispatch-refused", tool, code: error.code, reason: error.message });
    throw error;
  }

  /**
   * validate → judge → approve → run: the arguments are validated, the gate authorizes,
   * and the approval hook is asked only once the tool's own checks passed (tools that
   * `approvesAfterChecks` ask through `InvokeOptions.approve`; for others the registry
   * asks before invoking). A call refused anywhere before that never reaches the hook.
   */
  async #dispatch(
    name: string,
    rawArgs: unknown,
    grant: Grant,
    floor: EnforcementFloor,
    options: DispatchOptions,
  ): Promise<unknown> {
    const started = performance.now();
    const callId = this.#nextCallId++;
    const audit = callAuditSink(this.#audit, callId);
    if (this.#closed)
      this.#refuse(audit, name, new RegistryError("REGISTRY_CLOSED", "registry is closed"));
    const tool = this.#config.tools.get(name);
    if (!tool)
      this.#refuse(audit, name, new RegistryError("TOOL_NOT_FOUND", `no such tool: ${name}`));
    // A call without a signal gets one of its own: engines add a listener per call, and
    // one shared signal would collect them from every concurrent call.
    const signal = options.signal ?? new AbortController().signal;
    signal.throwIfAborted();
    let args: unknown;
    try {
      args = validateArguments(name, tool.inputSchema, rawArgs);
    } catch (error) {
      this.#refuse(audit, name, error as BridleError);
    }
    this.#resolvedPolicy ??= resolvePathPolicy(this.#config.pathPolicy);
    const pathPolicy = await this.#resolvedPolicy;
    const budget = Grant.budgetOf(grant);
    if (!budget.tryTake()) {
      this.#refuse(
        audit,
        name,
        new RegistryError("BUDGET_EXHAUSTED", "denied: call budget (max_calls) exhausted"),
      );
    }
    const humanGate = this.#config.approval ? "approval_hook" : "none";
    let cx: ReturnType<Gate["authorize"]>;
    try {
      const gate = new Gate({
        generation: this.generation,
        floor,
        audit: this.#audit,
        callId,
        pathPolicy,
        humanGate,
      });
      cx = gate.authorize(tool, grant.caveats);
    } catch (error) {
      budget.refund();
      this.#refuse(audit, name, error as BridleError);
    }
    const call: CallState = { tool, args, cx, budget, audit, started, humanGate };
    const hook = this.#config.approval;
    if (hook === undefined) return this.#invoke(call, { signal, observer: options.observer });
    const approval = approvalOnce(hook, tool, args);
    if (!tool.approvesAfterChecks) {
      try {
        await approval.approve();
      } catch (error) {
        if (!(error instanceof ApprovalRefusal)) throw error;
        return this.#refusedApproval(call, error, false);
      }
      return this.#invoke(call, { signal, observer: options.observer });
    }
    return this.#invoke(call, { signal, observer: options.observer }, approval);
  }

  /** The hook refused: nothing ran, the call is refunded, an in-band denial. */
  #refusedApproval(call: CallState, refusal: ApprovalRefusal, admitted: boolean) {
    const { tool, audit } = call;
    call.budget.refund();
    audit.record({
      type: "dispatch-refused",
      tool: tool.name,
      code: "APPROVAL_REFUSED",
      reason: refusal.reason,
    });
    if (admitted) {
      audit.record({
        type: "dispatch-finished",
        tool: tool.name,
        outcome: "denied",
        charged: false,
      });
    }
    return approvalDenialEnvelope(
      tool.name,
      refusal.reason,
      call.humanGate,
      performance.now() - call.started,
    );
  }

  async #invoke(
    state: CallState,
    call: { readonly signal: AbortSignal; readonly observer: ShellOutputObserver | undefined },
    approval?: ApprovalOnce,
  ) {
    const { tool, args, cx, budget, audit } = state;
    audit.record({ type: "dispatch-admitted", tool: tool.name });
    try {
      const { signal, observer } = call;
      const invocation = await tool.invokeAccounted(args, cx, {
        signal,
        ...(observer === undefined ? {} : { observer }),
        ...(approval === undefined ? {} : { approve: approval.approve }),
      });
      if (invocation.kind === "ran" && approval !== undefined && !approval.asked) {
        // Fails closed on a tool that declared it asks and did not: its result is withheld.
        throw new ToolFailedError(`${tool.name} ran without asking the approval hook`);
      }
      const charged = invocation.kind === "ran";
      if (!charged) budget.refund();
      audit.record({
        type: "dispatch-finished",
        tool: tool.name,
        outcome: invocation.kind,
        charged,
      });
      return invocation.value;
    } catch (error) {
      if (error instanceof ApprovalRefusal && approval?.refused === error) {
        return this.#refusedApproval(state, error, true);
      }
      const refused = DeniedError.isInstance(error);
      if (refused) budget.refund();
      audit.record({
        type: "dispatch-finished",
        tool: tool.name,
        outcome: refused ? "denied" : "failed",
        charged: !refused,
      });
      if (BridleError.isInstance(error)) throw error;
      // The model-facing message names only the system error code; the raw error (which
      // may hold paths or contents) stays on `cause` for the integrator.
      const systemCode = (error as { code?: unknown } | null)?.code;
      const detail = typeof systemCode === "string" ? ` (${systemCode})` : "";
      throw new ToolFailedError(`tool execution failed${detail}`, { cause: error });
    }
  }
}

/** One admitted call, as the registry carries it from the gate to the tool. */
interface CallState {
  readonly tool: Tool;
  readonly args: unknown;
  readonly cx: Parameters<Tool["invoke"]>[1];
  readonly budget: ReturnType<typeof Grant.budgetOf>;
  readonly audit: StampedAuditSink;
  readonly started: number;
  readonly humanGate: "approval_hook" | "none";
}

/** The hook asked at most once per call, whoever asks first; a refusal rejects every ask. */
interface ApprovalOnce {
  readonly approve: () => Promise<void>;
  readonly asked: boolean;
  readonly refused: ApprovalRefusal | undefined;
}

function approvalOnce(hook: ApprovalHook, tool: Tool, args: unknown): ApprovalOnce {
  let verdict: Promise<void> | undefined;
  const state = {
    asked: false,
    refused: undefined as ApprovalRefusal | undefined,
    approve(): Promise<void> {
      verdict ??= (async () => {
        state.asked = true;
        const answer = await askApproval(hook, await approvalRequest(tool, args));
        if (!answer.approved) {
          state.refused = new ApprovalRefusal(answer.reason);
          throw state.refused;
        }
      })();
      return verdict;
    },
  };
  return state;
}

async function approvalRequest(tool: Tool, args: unknown) {
  if (!tool.inspect) return { tool: tool.name, arguments: args };
  try {
    return { tool: tool.name, arguments: args, inspection: await tool.inspect(args) };
  } catch (error) {
    return {
      tool: tool.name,
      arguments: args,
      inspection_error: error instanceof Error ? error.message : String(error),
    };
  }
}

const BUILD = Symbol("registry-build");

/** Explicit builder; registering a name again replaces the earlier tool. */
export class RegistryBuilder {
  readonly #tools = new Map<string, Tool>();
  #generation = 0;
  #floor: EnforcementFloor = DEFAULT_FLOOR;
  #audit: AuditSink | undefined;
  #approval: ApprovalHook | undefined;
  #pathPolicy: PathPolicy | undefined;

  tool<Args, Result>(tool: Tool<Args, Result>): this {
    // Stored erased: dispatch validates arguments with the tool's own schema first.
    this.#tools.set(tool.name, tool as unknown as Tool);
    return this;
  }
  generation(generation: number): this {
    this.#generation = generation;
    return this;
  }
  /** Joined onto the default floor: a registry can raise the floor, never lower it. */
  floor(floor: EnforcementFloor): this {
    this.#floor = joinFloors(this.#floor, floor);
    return this;
  }
  audit(sink: AuditSink): this {
    this.#audit = sink;
    return this;
  }
  approvalHook(hook: ApprovalHook): this {
    this.#approval = hook;
    return this;
  }
  pathPolicy(policy: PathPolicy): this {
    this.#pathPolicy = policy;
    return this;
  }
  build(): Registry {
    return new Registry(
      {
        tools: new Map(this.#tools),
        generation: this.#generation,
        floor: this.#floor,
        audit: this.#audit,
        approval: this.#approval,
        // Core reads no environment: without a host-supplied policy (the facade passes
        // one with the user's home) the system locations and the credential names
        // anywhere (`**/.ssh`, …) are blocked, failing closed.
        pathPolicy:
          this.#pathPolicy ?? defaultPathPolicy({ platform: process.platform, home: undefined }),
      },
      BUILD,
    );
  }
}
