import { execFile } from "node:child_process";
import { ConfigurationError } from "@agent-bridle/core";
import type {
  LauncherBinary,
  LauncherLayers,
  LauncherMaxProcsMode,
  LauncherProbe,
} from "./types.js";

const LAYER_NAMES = ["namespaces", "private_view", "capabilities", "landlock", "seccomp"] as const;

/** The probe's layers; a launcher that does not report them has none of them. */
function layersOf(raw: unknown): LauncherLayers {
  const r = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  const entries = LAYER_NAMES.map((name) => [name, r[name] === true] as const);
  return Object.fromEntries(entries) as unknown as LauncherLayers;
}

const maxProcsModes: readonly LauncherMaxProcsMode[] = ["cgroup", "userns-rlimit", "none"];

function parseProbe(text: string): LauncherProbe {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new ConfigurationError("bridle-launch --probe: output is not JSON", { cause });
  }
  if (typeof raw !== "object" || raw === null)
    throw new ConfigurationError("bridle-launch --probe: not a JSON object");
  const r = raw as Record<string, unknown>;
  const { launcher_version, landlock_abi, seccomp, user_namespaces, pid_namespaces } = r;
  const max_procs = maxProcsModes.find((mode) => mode === r.max_procs) ?? "none";
  if (
    typeof launcher_version !== "number" ||
    typeof landlock_abi !== "number" ||
    typeof seccomp !== "boolean" ||
    typeof user_namespaces !== "boolean" ||
    typeof pid_namespaces !== "boolean"
  ) {
    throw new ConfigurationError("bridle-launch --probe: unexpected output shape");
  }
  return {
    launcher_version,
    landlock_abi,
    seccomp,
    user_namespaces,
    pid_namespaces,
    max_procs,
    memory_limit: r.memory_limit === "cgroup" ? "cgroup" : "none",
    layers: layersOf(r.layers),
    net_proxy: r.net_proxy === true,
    serve: r.serve === true,
    layer_error: typeof r.layer_error === "string" ? r.layer_error : "no layer report",
  };
}

/** Runs `bridle-launch --probe` (argv, no shell) and returns what this kernel supports. */
export function probeLauncher(binary: LauncherBinary): Promise<LauncherProbe> {
  return new Promise((resolve, reject) => {
    execFile(
      binary.path,
      ["--probe"],
      { env: {}, timeout: 10_000, maxBuffer: 64 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) {
          reject(
            new ConfigurationError(
              `bridle-launch --probe failed: ${stderr.trim() || error.message}`,
              {
                cause: error,
              },
            ),
          );
          return;
        }
        try {
          resolve(parseProbe(stdout));
        } catch (cause) {
          reject(cause);
        }
      },
    );
  });
}
