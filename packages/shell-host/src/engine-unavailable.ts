import {
  type Caveats,
  createDenial,
  type Denial,
  ENFORCED_AXES,
  type FloorShortfall,
  isRestricted,
} from "@agent-bridle/core";

/**
 * The host engine's in-band refusal when the backend cannot bound a restricted axis to
 * the floor: it has no L2 check of its own, so it will not run ("engine unavailable for
 * this grant"), naming the axis.
 */
export function engineUnavailable(shortfall: FloorShortfall): Denial {
  const kind = shortfall.axis === "net" ? "net" : shortfall.axis === "exec" ? "exec" : "open";
  return createDenial(
    kind,
    `sandbox-host engine (${shortfall.axis} restricted)`,
    "ENGINE_UNAVAILABLE",
    `engine unavailable for this grant: ${shortfall.message}; the host shell checks nothing itself, so ask for an unrestricted ${shortfall.axis} axis or use the bash engine`,
  );
}

/**
 * Unbridled drops the kernel mechanism and leaves the grant to each engine's own checks
 * (reference §1.9). The host engine has none, so in an unbridled process it cannot honour
 * any restricted axis: it refuses (an unrestricted grant still runs, and discloses it).
 */
export function unbridledRefusal(caveats: Caveats): Denial | undefined {
  const restricted = ENFORCED_AXES.filter((axis) => isRestricted(caveats[axis]));
  const [first] = restricted;
  if (first === undefined) return undefined;
  const list = restricted.join(", ");
  return createDenial(
    first === "net" ? "net" : first === "exec" ? "exec" : "open",
    `sandbox-host engine (${list} restricted, unbridled)`,
    "ENGINE_UNAVAILABLE",
    `engine unavailable for this grant: this process is unbridled, so no kernel sandbox bounds the host shell, and it checks nothing itself; ${list} would not be enforced`,
  );
}
