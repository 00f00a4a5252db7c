/**
 * Resource limits the funnel asks the backend to apply to every spawned tree. Host
 * configuration, never a request field. The `none` backend cannot apply them (Node has
 * no pre-exec hook); the launcher applies each, and the process and memory caps bind
 * root too (`pids` and `memory` cgroups; ADR 0004, ADR 0010).
 */
export interface ResourceLimits {
  /** RLIMIT_FSIZE: the largest file a spawned program may write. */
  readonly fileSizeBytes?: number | undefined;
  /** RLIMIT_AS: address space per process. Off by default (it breaks runtimes that reserve). */
  readonly memoryBytes?: number | undefined;
  /** Processes (and threads) in the whole tree, the target included. */
  readonly maxProcesses?: number | undefined;
  /** Memory of the whole tree (a memory cgroup; where none can be made, not bound). */
  readonly treeMemoryBytes?: number | undefined;
  /** RLIMIT_NOFILE: open descriptors per process. */
  readonly openFiles?: number | undefined;
  /** Size of the call's private `/tmp` and `/dev/shm` (memory, counted by the cgroup). */
  readonly privateTmpBytes?: number | undefined;
  /**
   * Bytes an engine's interpreter writes to files itself in one call, all files together
   * (the bash engine's redirections, which no kernel limit of a spawned program counts).
   */
  readonly interpreterWrittenBytes?: number | undefined;
  /**
   * Scheduling niceness of every spawned tree (0 to 19), its session's scheduling group
   * included: a burst of calls yields the CPU to the host's own thread (ADR 0029). Not a
   * bound: a program that starts a session of its own takes a fair share again.
   */
  readonly niceness?: number | undefined;
}

/**
 * Defaults (kernel-boundary.md §2, limits; ADR 0021): 512 processes, 4 GiB for the whole
 * tree, files up to 1 GiB, 4096 open descriptors, a 512 MiB private `/tmp`, 1 GiB written
 * by the interpreter itself, niceness 10 (ADR 0029). No RLIMIT_AS (V8).
 */
export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = Object.freeze({
  maxProcesses: 512,
  treeMemoryBytes: 4 * 1024 ** 3,
  fileSizeBytes: 1024 ** 3,
  openFiles: 4096,
  privateTmpBytes: 512 * 1024 ** 2,
  interpreterWrittenBytes: 1024 ** 3,
  niceness: 10,
});
