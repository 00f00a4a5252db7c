import * as z from "zod";

/** Whether a human-in-the-loop approval hook is configured on the registry. */
export const HumanGateSchema = z.enum(["none", "approval_hook"]);
export type HumanGate = z.infer<typeof HumanGateSchema>;

/**
 * Operator-facing facts; never part of the enforcement claim. Omitted when quiet (not
 * unbridled, nothing disabled, no over-delivery, no forced backend, no engine name);
 * `human_gate` is always present when the block is emitted.
 */
export const DisclosureSchema = z.strictObject({
  unbridled: z.literal(true).optional(),
  normalizations_disabled: z.array(z.string()).min(1).optional(),
  net_over_delivery: z.literal(true).optional(),
  backend_forced: z.string().optional(),
  engine: z.string().optional(),
  private_temp_dir: z.string().optional(),
  /** The call's network went through its egress proxy, which decided by host name (network.md). */
  net_via: z.literal("proxy").optional(),
  /**
   * A restricted `exec` axis was held by the backend's execute rules alone: the engine ran
   * no program check of its own (the host shell). The report's strength is the backend's
   * (ADR 0024).
   */
  exec_via: z.literal("execute_rules").optional(),
  /**
   * What the kernel refused a spawned program (a path outside its view, an exec without
   * the right) is not in `denials`: it reaches the program as an ordinary error (ADR 0013).
   */
  kernel_refusals: z.literal("not_itemised").optional(),
  human_gate: HumanGateSchema,
});
export type Disclosure = z.infer<typeof DisclosureSchema>;

export interface DisclosureFacts {
  readonly unbridled: boolean;
  readonly humanGate: HumanGate;
  readonly engine?: string;
  readonly normalizationsDisabled?: readonly string[];
  readonly netOverDelivery?: boolean;
  readonly backendForced?: string;
  readonly privateTempDir?: string;
  /** A host allow-list's connections went through the egress proxy. */
  readonly netVia?: "proxy";
  /** The exec axis was held by the backend's execute rules, with no engine check (ADR 0024). */
  readonly execVia?: "execute_rules";
  /** Some axis was held by the kernel, whose refusals the result cannot list. */
  readonly kernelRefusalsNotItemised?: boolean;
}

/** Builds the disclosure block, or `undefined` when it is quiet. */
export function buildDisclosure(facts: DisclosureFacts): Disclosure | undefined {
  const disclosure: Disclosure = { human_gate: facts.humanGate };
  if (facts.unbridled) disclosure.unbridled = true;
  if (facts.normalizationsDisabled && facts.normalizationsDisabled.length > 0) {
    disclosure.normalizations_disabled = [...facts.normalizationsDisabled];
  }
  if (facts.netOverDelivery) disclosure.net_over_delivery = true;
  if (facts.backendForced !== undefined) disclosure.backend_forced = facts.backendForced;
  if (facts.engine !== undefined) disclosure.engine = facts.engine;
  if (facts.privateTempDir !== undefined) disclosure.private_temp_dir = facts.privateTempDir;
  if (facts.netVia !== undefined) disclosure.net_via = facts.netVia;
  if (facts.execVia !== undefined) disclosure.exec_via = facts.execVia;
  if (facts.kernelRefusalsNotItemised) disclosure.kernel_refusals = "not_itemised";
  return Object.keys(disclosure).length === 1 ? undefined : disclosure;
}
