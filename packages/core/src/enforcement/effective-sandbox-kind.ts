import type { Caveats } from "../caveats/caveats.js";
import { isRestricted } from "../caveats/scope.js";
import { isLoopbackOnly } from "./loopback.js";
import type { SandboxKind } from "./sandbox-kind.js";

/**
 * The kind reported for a run: the available backend only when these caveats engage
 * it, else `none` (reference §10.1). Spec §3 change: installing Landlock execute rules
 * for a restricted exec axis engages Landlock. `landlockAbi` gates `net only[]` (≥ 4).
 */
export function effectiveSandboxKind(
  available: SandboxKind,
  caveats: Caveats,
  options: { readonly landlockAbi?: number; readonly netProxy?: boolean } = {},
): SandboxKind {
  const fs = isRestricted(caveats.fs_read) || isRestricted(caveats.fs_write);
  const exec = caveats.exec === "all" ? undefined : caveats.exec.only;
  const net = caveats.net === "all" ? undefined : caveats.net.only;
  const netDenyAll = net?.length === 0;
  const engaged = ((): boolean => {
    switch (available) {
      case "none":
        return false;
      case "landlock":
        // A host allow-list engages it where its proxy network can be set up (network.md).
        return (
          fs ||
          exec !== undefined ||
          ((netDenyAll || (net !== undefined && options.netProxy === true)) &&
            (options.landlockAbi ?? 4) >= 4)
        );
      case "seatbelt":
        return fs || netDenyAll || (net !== undefined && isLoopbackOnly(net)) || exec !== undefined;
      case "app_container":
        return fs || netDenyAll || (net !== undefined && isLoopbackOnly(net)) || exec?.length === 0;
      case "minimal_rootfs":
      case "micro_vm":
        return fs || exec !== undefined || net !== undefined;
    }
  })();
  return engaged ? available : "none";
}
