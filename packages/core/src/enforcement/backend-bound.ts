import type { Caveats } from "../caveats/caveats.js";
import type { AppliedBackend } from "./applied-backend.js";
import type { AxisEnforcement, EnforcedAxis } from "./axis-enforcement.js";
import { namesFullLoopback } from "./loopback.js";

/**
 * How strongly the applied backend alone bounds one restricted axis (reference §10.2
 * as changed by spec §3), or `undefined` when it does not bound it at all. `kernel`
 * means exactly the requested authority; a fence that permits more is below kernel.
 */
export function backendBound(
  axis: EnforcedAxis,
  caveats: Caveats,
  backend: AppliedBackend,
): AxisEnforcement | undefined {
  const exec = caveats.exec === "all" ? undefined : caveats.exec.only;
  const net = caveats.net === "all" ? undefined : caveats.net.only;
  switch (backend.kind) {
    case "none":
      return undefined;
    case "micro_vm":
      return "kernel";
    case "minimal_rootfs":
      return axis === "net" ? undefined : "kernel";
    case "landlock":
      if (axis === "exec") return backend.execRules === false ? undefined : "interceptor";
      // net only[] adds TCP bind/connect deny (ABI ≥ 4) and the seccomp socket deny; a
      // host allow-list is kernel only with its namespace and proxy ports up (network.md).
      if (axis === "net") {
        if ((backend.landlockAbi ?? 4) < 4 || net === undefined) return undefined;
        return net.length === 0 || backend.netProxy === true ? "kernel" : undefined;
      }
      return "kernel";
    case "seatbelt":
      if (axis === "exec")
        return exec?.some((p) => p === "sh" || p === "/bin/sh") ? "interceptor" : "kernel";
      return axis === "net" ? undefined : "kernel";
    case "app_container":
      if (axis === "exec") return exec?.length === 0 ? "kernel" : "interceptor";
      if (axis === "net")
        return net !== undefined && (net.length === 0 || namesFullLoopback(net))
          ? "kernel"
          : undefined;
      return "kernel";
  }
}
