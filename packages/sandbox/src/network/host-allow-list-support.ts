import type { BackendProbe } from "../backend/backend.js";

/**
 * Whether a host allow-list (`net: { only: [hosts] }`) can be enforced with this backend,
 * and why not, for `bridle doctor` (network.md): the launcher's network namespace with the
 * egress proxy's ports, and Landlock's TCP rules (ABI ≥ 4).
 */
export function hostAllowListSupport(kind: string, probe: BackendProbe): string {
  if (kind !== "landlock") {
    return `not enforceable with the ${kind} backend: such grants are advisory and refused by the default floor`;
  }
  if (!probe.available) return "not enforceable: the launcher is unavailable";
  if ((probe.landlockAbi ?? 0) < 4) {
    return `not enforceable: Landlock ABI ${probe.landlockAbi ?? 0} has no TCP rules (4 needed)`;
  }
  if (probe.netProxy !== true) {
    return "not enforceable: the launcher cannot set up a network namespace with loopback here";
  }
  return "enforced (kernel): a network namespace per call whose only way out is the egress proxy";
}
