import { createDenial, type Denial, type FloorShortfall } from "@agent-bridle/core";

const TARGETS = {
  fs_read: { kind: "open", target: "filesystem" },
  fs_write: { kind: "open", target: "filesystem" },
  net: { kind: "net", target: "network" },
  exec: { kind: "exec", target: "confinement" },
} as const;

/** The in-band refusal for a floor shortfall (`ENFORCEMENT_BELOW_FLOOR`); nothing runs. */
export function floorDenial(shortfall: FloorShortfall): Denial {
  const { kind, target } = TARGETS[shortfall.axis];
  return createDenial(kind, target, "ENFORCEMENT_BELOW_FLOOR", shortfall.message);
}
