import { existsSync } from "node:fs";
import { isAbsolute } from "node:path";
import { NO_BACKEND } from "@agent-bridle/core";
import type { Backend, BackendPrepareRequest, PreparedBackend } from "./backend.js";
import { grantedExecutables, grantedRoots } from "./granted-paths.js";
import { seatbeltProfile } from "./seatbelt-profile.js";

const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/**
 * macOS: each stage is prefixed with `sandbox-exec -p <profile>` (reference §10.3).
 * EXPERIMENTAL: the profile text is unit-tested, but no macOS machine runs it here.
 * It cannot hide a blocked path by a mount, so blocked paths are denied in the profile
 * (last match wins); it does not reap `setsid` descendants (the funnel's group kill and
 * `/proc`-less tree walk are all there is) and applies no resource limits.
 */
export function createSeatbeltBackend(
  platform: NodeJS.Platform = process.platform,
  sandboxExec: string = SANDBOX_EXEC,
): Backend {
  const available = platform === "darwin" && existsSync(sandboxExec);
  return Object.freeze({
    kind: "seatbelt" as const,
    probe: async () => ({
      available,
      detail: available ? "seatbelt (experimental)" : `${sandboxExec} not found`,
    }),
    async prepare(request: BackendPrepareRequest): Promise<PreparedBackend> {
      const { caveats } = request;
      const blocked = request.pathPolicy.blocked.filter((entry) => isAbsolute(entry));
      const profile = seatbeltProfile({
        caveats,
        extraWriteRoots: await grantedRoots("all", [], request.extraWriteRoots),
        runtimeReadPaths: request.runtimeReadPaths,
        executables:
          caveats.exec === "all"
            ? []
            : await grantedExecutables(caveats.exec, request.runtimeExecutables),
        blocked,
      });
      // Name patterns (`**/.ssh`) are not expressed in the profile: with a restricted fs
      // axis the fence is then wider than the grant, so claim nothing (the floor refuses),
      // as the Linux backend does for what it cannot mask.
      const fsRestricted = caveats.fs_read !== "all" || caveats.fs_write !== "all";
      const unmasked = fsRestricted
        ? request.pathPolicy.blocked.filter((entry) => !isAbsolute(entry))
        : [];
      return Object.freeze({
        applied: unmasked.length > 0 ? NO_BACKEND : Object.freeze({ kind: "seatbelt" as const }),
        wrap: (argv: readonly string[]) => [sandboxExec, "-p", profile, ...argv],
        closesUnlistedDescriptors: false,
        unmasked: Object.freeze(unmasked),
      });
    },
  });
}
