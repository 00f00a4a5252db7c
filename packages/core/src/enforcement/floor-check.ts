import type { Caveats } from "../caveats/caveats.js";
import { isRestricted } from "../caveats/scope.js";
import {
  type AxisEnforcement,
  compareEnforcement,
  ENFORCED_AXES,
  type EnforcedAxis,
  weakerEnforcement,
} from "./axis-enforcement.js";
import type { EnforcementFloor } from "./enforcement-floor.js";
import type { EnforcementReport } from "./enforcement-report.js";

export interface FloorShortfall {
  readonly axis: EnforcedAxis;
  readonly required: AxisEnforcement;
  readonly actual: AxisEnforcement | undefined;
  readonly message: string;
}

const AXIS_LABEL: Readonly<Record<EnforcedAxis, string>> = {
  fs_read: "fs_read",
  fs_write: "fs_write",
  net: "net",
  exec: "exec",
};

/**
 * The first restricted axis (order fs_read, fs_write, net, exec) whose reported strength
 * is below the floor, or `undefined` when the floor holds. Unrestricted axes carry no
 * obligation; a restricted axis with no report at all is a shortfall.
 */
export function unenforceableAxis(
  caveats: Caveats,
  report: EnforcementReport,
  floor: EnforcementFloor,
): FloorShortfall | undefined {
  for (const axis of ENFORCED_AXES) {
    if (!isRestricted(caveats[axis])) continue;
    const actual = report[axis];
    if (actual !== undefined && compareEnforcement(actual, floor[axis]) >= 0) continue;
    return Object.freeze({
      axis,
      required: floor[axis],
      actual,
      message: `${AXIS_LABEL[axis]} axis requires ${floor[axis]} but the governing backend delivers only ${actual ?? "nothing"}`,
    });
  }
  return undefined;
}

/** The weakest restricted axis of a report, or `null` when nothing is restricted. */
export function fenceStrength(report: EnforcementReport): AxisEnforcement | null {
  const present = Object.values(report).filter((value) => value !== undefined);
  return present.length === 0 ? null : present.reduce(weakerEnforcement);
}
