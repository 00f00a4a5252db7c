import { homedir, tmpdir } from "node:os";
import path from "node:path";
import {
  type ApprovalHook,
  type AuditSink,
  ConfigurationError,
  defaultPathPolicy,
  type EnforcementFloor,
  type PathPolicy,
  Registry,
} from "@agent-bridle/core";
import { createFileConfig, createFsTools, type FileConfigOptions } from "@agent-bridle/fs-tools";
import { inspectShell } from "@agent-bridle/shell-brush";
import { createHostShellTool, type HostShellToolOptions } from "@agent-bridle/shell-host";
import { createShellTool } from "@agent-bridle/shell-safe";
import { brushSupported } from "./brush-supported.js";

/**
 * Which engine serves `shell`:
 * - `"default"`: the bash engine where `brushSupported()`, the safe-subset engine
 *   elsewhere. INTERIM: neither is available yet, so the default registry has **no**
 *   `shell` tool (see `shellSelection`).
 * - `"safe"`: the safe-subset engine (`createShellTool` of `shell-safe`): argv and a
 *   subset of bash it interprets exactly, or refuses. Opt-in until it becomes the default.
 * - `"host"`: the host bash engine (`createHostShellTool`), the whole guarantee on the
 *   kernel boundary. Never chosen for you; a host opts in explicitly.
 * - `"none"`: no `shell` tool.
 */
export type ShellChoice = "default" | "safe" | "host" | "none";

/** Options of the host engine when `shell: "host"`; `home`/`tmpdir` default to the user's. */
export type HostShellOptions = Partial<Omit<HostShellToolOptions, "name" | "baseDir">>;

export interface RegistryOptions {
  /** Default `"default"` (INTERIM: no shell until `shell-brush`/`shell-safe` are wired). */
  readonly shell?: ShellChoice | undefined;
  /** Options of the host engine (only with `shell: "host"`). */
  readonly hostShell?: HostShellOptions | undefined;
  /** `FileConfig` options of the fs tools, or `false` for no fs tools. */
  readonly files?: FileConfigOptions | false | undefined;
  /**
   * Absolute directory relative paths resolve against, for the fs tools (unless
   * `files.baseDir` is set) and the shell. Without it relative paths are refused.
   */
  readonly baseDir?: string | undefined;
  /** Consulted before every call runs; a refusal is an uncharged `APPROVAL_REFUSED` denial. */
  readonly approval?: ApprovalHook | undefined;
  /** Receives every decision (admitted, denied, argv spawned, report). */
  readonly audit?: AuditSink | undefined;
  /**
   * Locations no grant reaches. Default: core's `defaultPathPolicy` with this user's home
   * (`os.homedir()`), so `~/.ssh`, `~/.aws`, … are blocked by their real location.
   */
  readonly pathPolicy?: PathPolicy | undefined;
  /** Raises the strength floor (joined onto the default; never lowers it). */
  readonly floor?: EnforcementFloor | undefined;
  readonly generation?: number | undefined;
}

export type ShellSelection =
  | { readonly engine: "sandbox-host"; readonly reason: string }
  | { readonly engine: "shell-safe"; readonly reason: string }
  | { readonly engine: "none"; readonly reason: string };

/** Which engine `registry(options)` registers as `shell`, and why. */
export function shellSelection(options: RegistryOptions = {}): ShellSelection {
  const choice = options.shell ?? "default";
  if (choice === "safe")
    return { engine: "shell-safe", reason: "the host chose the safe-subset engine" };
  if (choice === "host")
    return { engine: "sandbox-host", reason: "the host opted into the host bash engine" };
  if (choice === "none") return { engine: "none", reason: "the host asked for no shell" };
  return {
    engine: "none",
    reason: brushSupported()
      ? "unreachable: brushSupported() is false until shell-brush exists"
      : 'the default shell engines (bash engine, safe-subset engine) are not available in this build yet; opt into the host engine with shell: "host"',
  };
}

/** The default path policy for this user: system locations and the home's credentials. */
export function userPathPolicy(): PathPolicy {
  const platform = process.platform;
  let home: string | undefined;
  try {
    home = homedir();
  } catch {
    home = undefined;
  }
  return defaultPathPolicy({
    platform,
    home: home === "" ? undefined : home,
    // Windows keeps credential folders under %APPDATA%; read only there.
    appData: platform === "win32" ? process.env.APPDATA : undefined,
  });
}

function absoluteBaseDir(baseDir: string | undefined): string | undefined {
  if (baseDir === undefined) return undefined;
  if (!path.isAbsolute(baseDir))
    throw new ConfigurationError(
      `baseDir must be an absolute path, got ${JSON.stringify(baseDir)}`,
    );
  return baseDir;
}

/**
 * The default registry: the four fs tools (`read_file`, `list_directory`, `file_info`,
 * `write_file`) over one `FileConfig`, and `shell` per `shellSelection(options)`, with the
 * approval and audit hooks and the user's path policy. Built with the explicit builder
 * (no auto-registration). Call `close()` (or `await using`) when done.
 */
export function registry(options: RegistryOptions = {}): Registry {
  const baseDir = absoluteBaseDir(options.baseDir);
  const builder = Registry.builder().pathPolicy(options.pathPolicy ?? userPathPolicy());
  if (options.approval) builder.approvalHook(options.approval);
  if (options.audit) builder.audit(options.audit);
  if (options.floor) builder.floor(options.floor);
  if (options.generation !== undefined) builder.generation(options.generation);

  if (options.files !== false) {
    const files = options.files ?? {};
    const fileBaseDir = files.baseDir ?? baseDir;
    const config = createFileConfig({
      ...files,
      ...(fileBaseDir === undefined ? {} : { baseDir: fileBaseDir }),
    });
    const fs = createFsTools(config);
    builder.tool(fs.readFile).tool(fs.listDirectory).tool(fs.fileInfo).tool(fs.writeFile);
  }

  const selected = shellSelection(options).engine;
  if (selected === "shell-safe") {
    const host = options.hostShell ?? {};
    builder.tool(
      createShellTool({
        home: host.home ?? homedir(),
        tmpdir: host.tmpdir ?? tmpdir(),
        ...(host.backend ? { backend: host.backend } : {}),
        ...(baseDir === undefined ? {} : { baseDir }),
        // Dynamic-construct refusals carry the script's shell_inspection.
        inspector: inspectShell,
      }),
    );
  }
  if (selected === "sandbox-host") {
    const host = options.hostShell ?? {};
    builder.tool(
      createHostShellTool({
        ...host,
        home: host.home ?? homedir(),
        tmpdir: host.tmpdir ?? tmpdir(),
        ...(baseDir === undefined ? {} : { baseDir }),
      }),
    );
  }
  return builder.build();
}
