import * as z from "zod";

/** How strongly an axis is bounded. JSON snake_case. */
export const AxisEnforcementSchema = z.enum(["kernel", "interceptor", "advisory"]);
export type AxisEnforcement = z.infer<typeof AxisEnforcementSchema>;

/** The explicit ascending order advisory < interceptor < kernel; never declaration order. */
const RANK: Readonly<Record<AxisEnforcement, number>> = Object.freeze({
  advisory: 0,
  interceptor: 1,
  kernel: 2,
});

export function compareEnforcement(a: AxisEnforcement, b: AxisEnforcement): number {
  return RANK[a] - RANK[b];
}

export function strongerEnforcement(a: AxisEnforcement, b: AxisEnforcement): AxisEnforcement {
  return compareEnforcement(a, b) >= 0 ? a : b;
}

export function weakerEnforcement(a: AxisEnforcement, b: AxisEnforcement): AxisEnforcement {
  return compareEnforcement(a, b) <= 0 ? a : b;
}

/** The four authority axes a backend can bound, in the fixed order every check walks. */
export const ENFORCED_AXES = Object.freeze(["fs_read", "fs_write", "net", "exec"] as const);
export type EnforcedAxis = (typeof ENFORCED_AXES)[number];
