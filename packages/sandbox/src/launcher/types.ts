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
  /** Blocked paths inside the view, hidden (an empty directory or file over each). */
  readonly mask?: readonly string[] | undefined;
  /** In the private view read-only / read-write, with no Landlock rule (an axis granted `all`). */
  readonly viewReadOnly?: readonly string[] | undefined;
  readonly viewReadWrite?: readonly string[] | undefined;
  /** Write-blocked paths that exist: bound read-only over whatever root holds them. */
  readonly protect?: readonly string[] | undefined;
  /** Share the host's network namespace and allow unix sockets (`net: "all"`). */
  readonly netAll?: boolean | undefined;
  /**
   * A host allow-list (`net proxy`, network.md): a network namespace of its own whose
   * only way out is the listener on each port, handed to the host's egress proxy over
   * the launcher's IPC channel (the spawn's `ipc` stdio entry).
   */
  readonly netProxy?: readonly LauncherProxyPort[] | undefined;
  /** Descriptors besides 0, 1, 2 that reach the target; every other one is closed. */
  readonly keepFds?: readonly number[] | undefined;
  readonly rlimitFsize?: number | undefined;
  readonly rlimitAs?: number | undefined;
  readonly rlimitNofile?: number | undefined;
  /** Memory of the whole tree (a memory cgroup), bytes. */
  readonly memoryMax?: number | undefined;
  /** Size of the view's private `/tmp` and `/dev/shm`, bytes. */
  readonly tmpfsBytes?: number | undefined;
  /** Process-count cap for the whole tree (binds root too: pids cgroup or user namespace). */
  readonly maxProcs?: number | undefined;
  /** Niceness of the tree and of its session's scheduling group (0 to 19). */
  readonly nice?: number | undefined;
  readonly cwd?: string | undefined;
}

/** A port inside the call's network namespace whose listener the egress proxy takes. */
export interface LauncherProxyPort {
  readonly port: number;
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
  /** How a memory limit binds: a per-call memory cgroup, or not at all. */
  readonly memory_limit: "cgroup" | "none";
  /** Each layer of kernel-boundary.md §2, set up for real in a throw-away target. */
  readonly layers: LauncherLayers;
  /** Whether a host allow-list's network (`net proxy`) can be set up (absent: an older launcher). */
  readonly net_proxy?: boolean | undefined;
  /** Whether `--serve` (the host's spawn server, ADR 0023) is there (absent: an older launcher). */
  readonly serve?: boolean | undefined;
  /** The first layer's failure, when one failed ("" otherwise). */
  readonly layer_error: string;
}

/** Whether the probe's trial target got through each layer. */
export interface LauncherLayers {
  readonly namespaces: boolean;
  readonly private_view: boolean;
  readonly capabilities: boolean;
  readonly landlock: boolean;
  readonly seccomp: boolean;
}

/** A launcher binary whose checksum was verified when it was located. */
export interface LauncherBinary {
  readonly path: string;
  /** `built` by the package's build step, or the `prebuilt` static binary shipped with it. */
  readonly source: "built" | "prebuilt";
  readonly sha256: string;
}
