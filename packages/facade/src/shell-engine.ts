import { homedir, tmpdir } from "node:os";
import type { RegistryBuilder, ShellLimits, ShellOutputObserver } from "@agent-bridle/core";
import type { Backend, GitIdentity, ResourceLimits } from "@agent-bridle/sandbox";
import { createBrushShellTool } from "@agent-bridle/shell-brush";
import { createHostShellTool } from "@agent-bridle/shell-host";
import { createShellTool } from "@agent-bridle/shell-safe";
import type { ShellSelection } from "./shell-selection.js";

/**
 * Options of whichever engine serves `shell` (`RegistryOptions.shellOptions`). Every
 * engine takes the common ones; an engine ignores the options of the others.
 */
export interface ShellOptions {
  /** The children's `HOME`; default this user's home (`os.homedir()`). A trust decision. */
  readonly home?: string | undefined;
  /** The children's `TMPDIR`; default `os.tmpdir()`. */
  readonly tmpdir?: string | undefined;
  /** The L3 backend; default the host's (the launcher on Linux, Seatbelt on macOS). */
  readonly backend?: Backend | undefined;
  /**
   * Limits of every call's process tree under the launcher, over
   * `DEFAULT_RESOURCE_LIMITS` (512 processes and threads, 4 GiB of memory for the whole
   * tree, files up to 1 GiB, 4096 open files, a 512 MiB private `/tmp`); a limit given as
   * `undefined` is not applied. One a call runs into is reported in its envelope as a
   * `LIMIT_EXCEEDED` denial naming it (`memory`, `processes`, `file_size`).
   */
  readonly resourceLimits?: ResourceLimits | undefined;
  /**
   * The git identity (`user.name`, `user.email`) of the private home a call gets when
   * `home` is not inside its `fs_read` grant (that home also trusts every repository:
   * `safe.directory = *`); default `DEFAULT_GIT_IDENTITY` (`agent-bridle`).
   */
  readonly gitIdentity?: GitIdentity | undefined;
  /** Timeouts and output caps (`DEFAULT_SHELL_LIMITS` for what is not given). */
  readonly limits?: Partial<ShellLimits> | undefined;
  /** Live output of every call (reference §8); `DispatchOptions.observer` is per call. */
  readonly observer?: ShellOutputObserver | undefined;
  /** Bash engine: pre-start one worker for the next call (default true). */
  readonly warm?: boolean | undefined;
  /** Bash engine: how long a warm worker waits for a call before it exits (default 30 s). */
  readonly idleMs?: number | undefined;
  /** Host engine: the bash binary, absolute (default `/bin/bash`). */
  readonly shell?: string | undefined;
}

/** @deprecated The same options under their old name; use `ShellOptions`. */
export type HostShellOptions = ShellOptions;

type Defined<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

/** `value` without its `undefined` fields (the engines' options are exact). */
function defined<T extends object>(value: T): Defined<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as Defined<T>;
}

/** `hostShell` (the old name) under `shellOptions`: a field `shellOptions` sets wins. */
export function mergeShellOptions(
  hostShell: ShellOptions | undefined,
  shellOptions: ShellOptions | undefined,
): ShellOptions {
  return { ...defined(hostShell ?? {}), ...defined(shellOptions ?? {}) };
}

/** Registers the `shell` tool of `selection` (nothing for `"none"`). */
export function addSelectedShell(
  builder: RegistryBuilder,
  selection: ShellSelection,
  options: ShellOptions,
  baseDir: string | undefined,
): void {
  if (selection.engine === "none") return;
  const common = {
    home: options.home ?? homedir(),
    tmpdir: options.tmpdir ?? tmpdir(),
    ...defined({
      backend: options.backend,
      resourceLimits: options.resourceLimits,
      gitIdentity: options.gitIdentity,
      limits: options.limits,
      observer: options.observer,
      baseDir,
    }),
  };
  if (selection.engine === "brush") {
    builder.tool(
      createBrushShellTool({
        ...common,
        ...defined({ warm: options.warm, idleMs: options.idleMs }),
      }),
    );
    return;
  }
  if (selection.engine === "shell-safe") {
    // Dynamic-construct refusals carry the script's shell_inspection (the engine's own
    // inspectShell, from the parser it admits with: ADR 0022).
    builder.tool(createShellTool(common));
    return;
  }
  builder.tool(createHostShellTool({ ...common, ...defined({ shell: options.shell }) }));
}
