import { locateLauncher } from "../launcher/locate.js";
import { renderLauncherPolicy } from "../launcher/policy.js";
import { probeLauncher } from "../launcher/probe.js";
import type { LauncherBinary, LauncherPolicy, LauncherProbe } from "../launcher/types.js";

/**
 * The Linux launcher's loader (`src/launcher/`), as the funnel uses it. Injected, so the
 * funnel is tested with a fake and the backend glue does not depend on a built binary.
 */
export interface LauncherLoader {
  locateLauncher(): Promise<LauncherBinary | undefined>;
  probeLauncher(binary: LauncherBinary): Promise<LauncherProbe>;
  renderLauncherPolicy(policy: LauncherPolicy): string;
}

/** The real loader: the checksum-verified `bridle-launch` built or shipped with the package. */
export const LAUNCHER_LOADER: LauncherLoader = Object.freeze({
  locateLauncher,
  probeLauncher,
  renderLauncherPolicy,
});
