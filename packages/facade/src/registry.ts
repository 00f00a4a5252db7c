import { homedir } from "node:os";
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
import { addSelectedShell, mergeShellOptions, type ShellOptions } from "./shell-engine.js";
import { type ShellChoice, shellSelection } from "./shell-selection.js";

export interface RegistryOptions {
  /**
   * Which engine serves `shell`; default `"default"`: the bash engine on Linux and macOS
   * (`brushSupported()`), the safe-subset engine elsewhere. See `ShellChoice`.
   */
  readonly shell?: ShellChoice | undefined;
  /** The platform whose capability probe decides `"default"`; default `process.platform`. */
  readonly platform?: NodeJS.Platform | undefined;
  /** Options of the engine serving `shell` (`home`/`tmpdir` default to this user's). */
  readonly shellOptions?: ShellOptions | undefined;
  /**
   * @deprecated The former name of `shellOptions` (it now applies to every engine, not
   * only the host engine); `shellOptions` wins where both set a field.
   */
  readonly hostShell?: ShellOptions | undefined;
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
 * The default registry: the fs tools (`read_file`, `list_directory`, `file_info`,
 * `write_file`, `edit_file`, `search_files`, `directory_tree`, `list_allowed_directories`) over one `FileConfig`, and `shell` per `shellSelection(options)` (by
 * default the bash engine on Linux and macOS, the safe-subset engine elsewhere), with the
 * approval and audit hooks and the user's path policy. Built with the explicit builder
 * (no auto-registration). Call `close()` (or `await using`) when done: it also ends the
 * bash engine's warm worker.
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
    builder
      .tool(fs.readFile)
      .tool(fs.listDirectory)
      .tool(fs.fileInfo)
      .tool(fs.writeFile)
      .tool(fs.editFile)
      .tool(fs.searchFiles)
      .tool(fs.directoryTree)
      .tool(fs.listAllowedDirectories);
  }

  addSelectedShell(
    builder,
    shellSelection(options),
    mergeShellOptions(options.hostShell, options.shellOptions),
    baseDir,
  );
  return builder.build();
}
