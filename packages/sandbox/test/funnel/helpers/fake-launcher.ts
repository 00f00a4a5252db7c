import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Backend } from "../../../src/backend/backend.js";
import { createLandlockBackend } from "../../../src/backend/landlock-backend.js";
import { renderLauncherPolicy } from "../../../src/launcher/policy.js";
import type { LauncherProbe } from "../../../src/launcher/types.js";

/**
 * A stand-in for `bridle-launch`: a shell script that records the policy it is handed on
 * the policy descriptor and then runs the target (it enforces nothing). It exercises the
 * real Landlock backend glue (selection, policy, wrapping) without the C launcher.
 */
export function fakeLauncherBackend(
  directory: string,
  probe: Partial<LauncherProbe> = {},
): { backend: Backend; policyFile: string } {
  const policyFile = join(directory, "policy.txt");
  const script = join(directory, "fake-launch");
  writeFileSync(
    script,
    // As the real launcher: the policy as an argument (`--policy <text>`) or on a
    // descriptor (`--policy-fd <n>`), then `--` and the program.
    [
      "#!/bin/sh",
      `if [ "$1" = --policy ]; then printf '%s' "$2" > '${policyFile}'`,
      `else fd=$2; eval "cat <&$fd" > '${policyFile}'; eval "exec $fd<&-"; fi`,
      "shift 3",
      'exec "$@"',
      "",
    ].join("\n"),
  );
  chmodSync(script, 0o755);
  const facts: LauncherProbe = {
    launcher_version: 1,
    landlock_abi: 7,
    seccomp: true,
    user_namespaces: true,
    pid_namespaces: true,
    max_procs: "cgroup",
    memory_limit: "cgroup",
    layers: {
      namespaces: true,
      private_view: true,
      capabilities: true,
      landlock: true,
      seccomp: true,
    },
    layer_error: "",
    ...probe,
  };
  const backend = createLandlockBackend({
    locateLauncher: async () => ({ path: script, source: "built" as const, sha256: "fake" }),
    probeLauncher: async () => facts,
    renderLauncherPolicy,
  });
  return { backend, policyFile };
}
