/**
 * Resource limits the funnel asks the backend to apply to every spawned tree. Host
 * configuration, never a request field. The `none` backend cannot apply them (Node has
 * no pre-exec hook); the launcher applies each, and the process cap binds root too
 * (a `pids` cgroup; ADR 0004).
 */
export interface ResourceLimits {
  /** RLIMIT_FSIZE: the largest file a spawned program may write. */
  readonly fileSizeBytes?: number | undefined;
  /** RLIMIT_AS: address space per process. Off by default (it breaks runtimes that reserve). */
  readonly memoryBytes?: number | undefined;
  /** Processes (and threads) in the whole tree, the target included. */
  readonly maxProcesses?: number | undefined;
}

/** Defaults: a process cap that stops fork bombs; no file-size or memory limit. */
export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = Object.freeze({ maxProcesses: 512 });
