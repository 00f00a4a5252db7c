import { type AppliedBackend, NO_BACKEND } from "@agent-bridle/core";
import type { LauncherBinary, LauncherProbe } from "../launcher/types.js";
import type { Backend, BackendPrepareRequest, BackendProbe, PreparedBackend } from "./backend.js";
import { LAUNCHER_LOADER, type LauncherLoader } from "./launcher-loader.js";
import { launcherPolicyOf } from "./launcher-policy-of.js";

/** The lowest Landlock ABI the launcher's fs rules need (reference §10.3: clamped ≥ 3). */
const MIN_FS_ABI = 3;

/**
 * The Linux backend: the launcher applies Landlock, seccomp, the mount mask, limits and
 * the PID-namespace reaper before `exec`. Probed once; unavailable when the launcher is
 * missing, fails its probe, or the kernel's Landlock ABI is below 3.
 */
/** Linux takes one argument up to 128 KiB; larger policies go through a pipe. */
const MAX_POLICY_ARGUMENT_BYTES = 64 * 1024;

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
        const available = facts.landlock_abi >= MIN_FS_ABI && facts.seccomp && facts.pid_namespaces;
        return {
          probe: { available, landlockAbi: facts.landlock_abi, detail: JSON.stringify(facts) },
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
      const { policy: requested, unmasked } = await launcherPolicyOf(request);
      // Where the host offers no way to cap processes (probe `max_procs: none`), the
      // launcher would refuse every spawn; the cap is dropped and recorded as a residual.
      const policy =
        facts?.max_procs === "none" ? { ...requested, maxProcs: undefined } : requested;
      const launcher = binary.path;
      // A blocked path inside a granted root that cannot be hidden makes the fence wider
      // than the grant: claim no bound at all, so the floor refuses (ADR 0001 §5.4).
      const wider =
        unmasked.length > 0 || ((policy.mask?.length ?? 0) > 0 && facts?.user_namespaces !== true);
      const applied: AppliedBackend = wider
        ? NO_BACKEND
        : Object.freeze({
            kind: "landlock" as const,
            landlockAbi: probe.landlockAbi ?? MIN_FS_ABI,
            execRules: policy.exec === "restricted",
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
        unmasked: Object.freeze(unmasked),
      });
    },
  });
}
