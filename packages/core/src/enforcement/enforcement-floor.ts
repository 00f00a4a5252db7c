import * as z from "zod";
import {
  type AxisEnforcement,
  AxisEnforcementSchema,
  ENFORCED_AXES,
  strongerEnforcement,
} from "./axis-enforcement.js";

/**
 * How strongly each restricted axis must be bounded for a spawned process. It governs
 * spawned processes (whose own operations the tool cannot see); in-process tools do
 * every operation through the mediated open themselves and are not held to it.
 */
export const EnforcementFloorSchema = z.strictObject({
  fs_read: AxisEnforcementSchema,
  fs_write: AxisEnforcementSchema,
  exec: AxisEnforcementSchema,
  net: AxisEnforcementSchema,
});
export type EnforcementFloor = z.infer<typeof EnforcementFloorSchema>;

/** Spec §3 default: filesystem and network kernel, exec interceptor. */
export const DEFAULT_FLOOR: EnforcementFloor = Object.freeze({
  fs_read: "kernel",
  fs_write: "kernel",
  exec: "interceptor",
  net: "kernel",
});

/** The reference's CONFINED floor; under spec §3 it equals the default. */
export const CONFINED_FLOOR: EnforcementFloor = DEFAULT_FLOOR;

/** `{fs: kernel, exec: f, net: f}`, to be joined onto the default (so it can only raise). */
export function floorFromScalar(scalar: AxisEnforcement): EnforcementFloor {
  return Object.freeze({ fs_read: "kernel", fs_write: "kernel", exec: scalar, net: scalar });
}

/** Pointwise maximum: floors are only ever raised. */
export function joinFloors(a: EnforcementFloor, b: EnforcementFloor): EnforcementFloor {
  const joined = {} as Record<(typeof ENFORCED_AXES)[number], AxisEnforcement>;
  for (const axis of ENFORCED_AXES) joined[axis] = strongerEnforcement(a[axis], b[axis]);
  return Object.freeze(joined);
}
