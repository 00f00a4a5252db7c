import { type AuditSink, callAuditSink, NULL_AUDIT_SINK } from "../audit/audit-event.js";
import { type Caveats, meet } from "../caveats/caveats.js";
import { scopeContains } from "../caveats/scope.js";
import { mintToolContext, type ToolContext } from "../context/tool-context.js";
import {
  DEFAULT_FLOOR,
  type EnforcementFloor,
  joinFloors,
} from "../enforcement/enforcement-floor.js";
import type { SandboxKind } from "../enforcement/sandbox-kind.js";
import type { HumanGate } from "../envelope/disclosure.js";
import { RegistryError } from "../errors/registry-error.js";
import { BudgetCell } from "../grant/budget-cell.js";
import type { PathPolicy } from "../paths/path-policy.js";
import type { Tool } from "../tool/tool.js";

export interface GateOptions {
  /** A causal counter, never wall-clock. Default 0. */
  readonly generation?: number;
  readonly sandboxKind?: SandboxKind;
  /** Joined onto the default floor: it can only raise it. */
  readonly floor?: EnforcementFloor;
  /** A gate-level call budget, on top of the grant's. */
  readonly maxCalls?: number;
  readonly audit?: AuditSink;
  /**
   * The id stamped on every audit record of the call this gate authorizes (the registry
   * passes its own); absent, each `authorize` takes the gate's next id, from 1.
   */
  readonly callId?: number;
  readonly pathPolicy: PathPolicy;
  readonly humanGate?: HumanGate;
}

/**
 * Authorizes one call: effective = granted ⊓ tool.required; then the generation check
 * (before any charge, so a refused call costs nothing); then the gate's own budget;
 * then mints the `ToolContext`.
 */
export class Gate {
  readonly #options: GateOptions;
  readonly #floor: EnforcementFloor;
  readonly #budget: BudgetCell | undefined;
  #nextCallId = 1;

  constructor(options: GateOptions) {
    this.#options = options;
    this.#floor = joinFloors(DEFAULT_FLOOR, options.floor ?? DEFAULT_FLOOR);
    this.#budget = options.maxCalls === undefined ? undefined : new BudgetCell(options.maxCalls);
  }

  get generation(): number {
    return this.#options.generation ?? 0;
  }

  authorize(tool: Pick<Tool, "name" | "required">, granted: Caveats): ToolContext {
    const effective = meet(granted, tool.required);
    if (!scopeContains(granted.valid_for_generation, this.generation)) {
      throw new RegistryError(
        "GENERATION_INVALID",
        "denied: grant is not valid for the gate's generation",
      );
    }
    const exhausted = "denied: call budget (max_calls) exhausted";
    if (granted.max_calls !== "unlimited" && granted.max_calls.at_most === 0) {
      throw new RegistryError("BUDGET_EXHAUSTED", exhausted);
    }
    if (this.#budget && !this.#budget.tryTake())
      throw new RegistryError("BUDGET_EXHAUSTED", exhausted);
    return mintToolContext({
      toolName: tool.name,
      effective,
      sandboxKind: this.#options.sandboxKind ?? "none",
      strengthFloor: this.#floor,
      audit: callAuditSink(
        this.#options.audit ?? NULL_AUDIT_SINK,
        this.#options.callId ?? this.#nextCallId++,
      ),
      pathPolicy: this.#options.pathPolicy,
      humanGate: this.#options.humanGate ?? "none",
    });
  }
}
