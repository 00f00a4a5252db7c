import { type AppliedBackend, NO_BACKEND } from "@agent-bridle/core";
import type { LauncherBinary, LauncherProbe } from "../launcher/types.js";
import type { Backend, BackendPrepareRequest, BackendProbe, PreparedBackend } from "./backend.js";
import { LAUNCHER_LOADER, type LauncherLoader } from "./launcher-loader.js";
import { launcherPolicyOf } from "./launcher-policy-of.js";
import { refreshWriteProtection } from "./write-protected.js";

/** The lowest Landlock ABI the launcher's fs rules need (reference §10.3: clamped ≥ 3). */
const MIN_FS_ABI = 3;

/**
 * The Linux backend: the launcher applies the layers of kernel-boundary.md §2 before
 * `exec` (namespaces, the private view, capabilities dropped, Landlock, seccomp, limits,
 * the PID-namespace reaper). Probed once; unavailable — so every axis drops below
 * `kernel` and the default floor refuses in-band — when the launcher is missing, fails
 * its probe, any layer cannot be set up here, or the kernel's Landlock ABI is below 3.
 */
/** Linux takes one argument up to 128 KiB; larger policies go through a pipe. */
const MAX_POLICY_ARGUMENT_BYTES = 64 * 1024;

/** The layers the probe's trial target could not set up (empty: all hold). */
export function missingLayers(facts: LauncherProbe): string[] {
  const missing = Object.entries(facts.layers)
    .filter(([, held]) => !held)
    .map(([layer]) => layer);
  if (facts.landlock_abi < MIN_FS_ABI) missing.push(`landlock ABI >= ${MIN_FS_ABI}`);
  if (!facts.seccomp && !missing.includes("seccomp")) missing.push("seccomp");
  return missing;
}

export function createLandlockBackend(loader: LauncherLoader = LAUNCHER_LOADER): Backend {
  let probed:
    | Promise<{ probe: BackendProbe; binary?: LauncherBinary; facts?: LauncherProbe }>
    | undefined;
  const probeOnce = () => {
    probed ??= (async () => {
      try {
        const binary = await loader.locateLauncher();
        if (binary === undefined) return { probe: { available: false, detail: "no launcher" } };
        const facts = await loader.probeLauncher(binary);
        const missing = missingLayers(facts);
        const available = missing.length === 0;
        const detail = available
          ? JSON.stringify(facts)
          : `missing ${missing.join(", ")}${facts.layer_error ? ` (${facts.layer_error})` : ""}`;
        // A host allow-list needs its own network and Landlock's TCP rules (network.md).
        const netProxy = available && facts.net_proxy === true && facts.landlock_abi >= 4;
        return {
          probe: { available, landlockAbi: facts.landlock_abi, netProxy, detail },
          binary,
          facts,
        };
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        return { probe: { available: false, detail } };
      }
    })();
    return probed;
  };
  return Object.freeze({
    kind: "landlock" as const,
    probe: async () => (await probeOnce()).probe,
    async prepare(request: BackendPrepareRequest): Promise<PreparedBackend> {
      const { probe, binary, facts } = await probeOnce();
      if (!probe.available || binary === undefined) {
        throw new Error("landlock backend prepared without an available launcher");
      }
      const { policy: requested, unmasked, searched, planted } = await launcherPolicyOf(request);
      // Where the host offers no way to cap processes (probe `max_procs: none`) or memory
      // (`memory_limit: none`: an ordinary user without a delegated cgroup), the launcher
      // would refuse every spawn; the cap is dropped and recorded as a residual.
      const policy = {
        ...requested,
        maxProcs: facts?.max_procs === "none" ? undefined : requested.maxProcs,
        memoryMax: facts?.memory_limit === "cgroup" ? requested.memoryMax : undefined,
      };
      const launcher = binary.path;
      // A blocked path inside a granted root that cannot be hidden makes the fence wider
      // than the grant: claim no bound at all, so the floor refuses (ADR 0001 §5.4).
      const wider = unmasked.length > 0;
      const applied: AppliedBackend = wider
        ? NO_BACKEND
        : Object.freeze({
            kind: "landlock" as const,
            landlockAbi: probe.landlockAbi ?? MIN_FS_ABI,
            execRules: policy.exec === "restricted",
            netProxy: (policy.netProxy?.length ?? 0) > 0,
          });
      const policyText = loader.renderLauncherPolicy(policy);
      // A policy that fits comfortably in one argument travels as one: a pipe per spawn
      // cost about a quarter of a confined `/bin/true` (measured A/B, 5.5 vs 4.1 ms).
      const inArgv = Buffer.byteLength(policyText) <= MAX_POLICY_ARGUMENT_BYTES;
      return Object.freeze({
        applied,
        wrap: (argv: readonly string[], policyFd: number) =>
          inArgv
            ? [launcher, "--policy", policyText, "--", ...argv]
            : [launcher, "--policy-fd", String(policyFd), "--", ...argv],
        policyText: inArgv ? undefined : policyText,
        closesUnlistedDescriptors: true,
        pidNamespace: true,
        server: facts?.serve === true ? launcher : undefined,
        unmasked: Object.freeze(unmasked),
        sweep: () => planted.sweep(),
        // What the call wrote may include new configuration: the next call must see it.
        settled: () => refreshWriteProtection(searched),
      });
    },
  });
}
