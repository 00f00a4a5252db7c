/** Whether Landlock governs an axis (`restricted`) or leaves it to the OS (`all`). */
export type LauncherAxis = "all" | "restricted";

/**
 * What the funnel asks `bridle-launch` to apply before `exec` (docs/launcher-protocol.md).
 * Paths are absolute and already resolved; the runtime closure is the caller's to add.
 */
export interface LauncherPolicy {
  readonly fsRead: LauncherAxis;
  readonly fsWrite: LauncherAxis;
  readonly exec: LauncherAxis;
  /** Read roots (file or directory beneath), including the runtime closure. */
  readonly read?: readonly string[] | undefined;
  /** Write roots (imply read). */
  readonly write?: readonly string[] | undefined;
  /** Executable files or directories (resolved granted binaries + the dynamic loader). */
  readonly execute?: readonly string[] | undefined;
  /** Deny TCP bind/connect (Landlock) and AF_INET/AF_INET6/AF_PACKET sockets (seccomp). */
  readonly netDenyAll?: boolean | undefined;
  /** Blocked paths inside granted roots, hidden by a mount-namespace mask. */
  readonly mask?: readonly string[] | undefined;
  /** Descriptors besides 0, 1, 2 that reach the target; every other one is closed. */
  readonly keepFds?: readonly number[] | undefined;
  readonly rlimitFsize?: number | undefined;
  readonly rlimitAs?: number | undefined;
  /** Process-count cap for the whole tree (binds root too: pids cgroup or user namespace). */
  readonly maxProcs?: number | undefined;
  readonly cwd?: string | undefined;
}

/** How the launcher enforces `max-procs` on this host. */
export type LauncherMaxProcsMode = "cgroup" | "userns-rlimit" | "none";

/** The kernel features the launcher found: the `--probe` JSON line, field for field. */
export interface LauncherProbe {
  readonly launcher_version: number;
  /** 0 when Landlock is unavailable. */
  readonly landlock_abi: number;
  readonly seccomp: boolean;
  readonly user_namespaces: boolean;
  readonly pid_namespaces: boolean;
  readonly max_procs: LauncherMaxProcsMode;
}

/** A launcher binary whose checksum was verified when it was located. */
export interface LauncherBinary {
  readonly path: string;
  /** `built` by the package's build step, or the `prebuilt` static binary shipped with it. */
  readonly source: "built" | "prebuilt";
  readonly sha256: string;
}
