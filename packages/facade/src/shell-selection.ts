import { brushSupported } from "./brush-supported.js";

/**
 * Which engine serves `shell`:
 * - `"default"`: the bash engine where `brushSupported(platform)` (Linux, macOS), the
 *   safe-subset engine elsewhere. The advertised input schema follows the engine: the
 *   bash engine takes `{cmd, cwd?, env?, timeout_secs?}`, the safe-subset engine also
 *   `program`/`args`.
 * - `"brush"`: the bash engine (`createBrushShellTool` of `shell-brush`): full bash
 *   interpreted in a confined worker, every spawn checked against the grant, files and
 *   network bounded by the kernel.
 * - `"safe"`: the safe-subset engine (`createShellTool` of `shell-safe`): argv and a
 *   subset of bash it interprets exactly, or refuses, every program and path checked
 *   before anything runs.
 * - `"host"`: the host bash engine (`createHostShellTool`), the whole guarantee on the
 *   kernel boundary. Never chosen for you; a host opts in explicitly.
 * - `"none"`: no `shell` tool.
 */
export type ShellChoice = "default" | "brush" | "safe" | "host" | "none";

/** The engine names are those the envelopes disclose (`disclosure.engine`) where they do. */
export type ShellSelection =
  | { readonly engine: "brush"; readonly reason: string }
  | { readonly engine: "shell-safe"; readonly reason: string }
  | { readonly engine: "sandbox-host"; readonly reason: string }
  | { readonly engine: "none"; readonly reason: string };

export interface ShellSelectionOptions {
  readonly shell?: ShellChoice | undefined;
  /** The platform whose capability probe decides `"default"`; default `process.platform`. */
  readonly platform?: NodeJS.Platform | undefined;
}

/** Which engine `registry(options)` registers as `shell`, and why. */
export function shellSelection(options: ShellSelectionOptions = {}): ShellSelection {
  const choice = options.shell ?? "default";
  if (choice === "brush") return { engine: "brush", reason: "the host chose the bash engine" };
  if (choice === "safe")
    return { engine: "shell-safe", reason: "the host chose the safe-subset engine" };
  if (choice === "host")
    return { engine: "sandbox-host", reason: "the host opted into the host bash engine" };
  if (choice === "none") return { engine: "none", reason: "the host asked for no shell" };
  const platform = options.platform ?? process.platform;
  return brushSupported(platform)
    ? {
        engine: "brush",
        reason: `default: the bash engine, supported on ${platform} (brushSupported() is true)`,
      }
    : {
        engine: "shell-safe",
        reason: `default: the safe-subset engine, because the bash engine is not supported on ${platform} (brushSupported() is false)`,
      };
}
