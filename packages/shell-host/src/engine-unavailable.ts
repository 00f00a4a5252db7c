import { createDenial, type Denial, type FloorShortfall } from "@agent-bridle/core";

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
