import {
  accessSync,
  type BigIntStats,
  constants,
  lstatSync,
  readlinkSync,
  realpathSync,
  statSync,
} from "node:fs";
import { access, lstat, readFile, readlink, realpath, stat } from "node:fs/promises";
import { isMissingError } from "./fs-error-code.js";
import { classifyMountTable, type MountTableVerdict } from "./mount-table.js";

/**
 * How the judge asks the file system where a path really is: `in-process` calls the
 * kernel directly on the calling thread; `thread-pool` goes through libuv's pool.
 */
export type PathProbeMode = "in-process" | "thread-pool";

/**
 * The metadata lookups of the judge and the exec check (`realpath` is the native one).
 * `lstat`, `readlink` and `realpath` reject as Node's do; `stat` answers `undefined` for a missing
 * name (no exception per miss: most candidates of a search path are missing).
 */
export interface PathProbes {
  readonly mode: PathProbeMode;
  realpath(path: string): Promise<string>;
  lstat(path: string): Promise<BigIntStats>;
  readlink(path: string): Promise<string>;
  stat(path: string): Promise<BigIntStats | undefined>;
  /** Whether the caller may execute it (`access(X_OK)`); false on any error. */
  executable(path: string): Promise<boolean>;
}

function missingAsUndefined(error: unknown): undefined {
  if (isMissingError(error)) return undefined;
  throw error;
}

const THREAD_POOL: PathProbes = Object.freeze({
  mode: "thread-pool",
  realpath: (path: string) => realpath(path),
  lstat: (path: string) => lstat(path, { bigint: true }),
  readlink: (path: string) => readlink(path),
  stat: (path: string) => stat(path, { bigint: true }).catch(missingAsUndefined),
  executable: (path: string) =>
    access(path, constants.X_OK).then(
      () => true,
      () => false,
    ),
});

const IN_PROCESS: PathProbes = Object.freeze({
  mode: "in-process",
  realpath: async (path: string) => realpathSync.native(path),
  lstat: async (path: string) => lstatSync(path, { bigint: true }),
  readlink: async (path: string) => readlinkSync(path),
  stat: async (path: string) => {
    try {
      return statSync(path, { bigint: true, throwIfNoEntry: false });
    } catch (error) {
      return missingAsUndefined(error);
    }
  },
  executable: async (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
});

/** The mode in force and why (for `bridle doctor` and the ADR's promise of disclosure). */
export interface PathProbeReport {
  readonly mode: PathProbeMode;
  readonly reason: string;
}

export interface PathProbeSelectorOptions {
  /** The Linux mount table text; a rejection (no such file elsewhere) means thread pool. */
  readonly readMountTable: () => Promise<string>;
  readonly now: () => number;
  /** How long a reading of the mount table is trusted before it is read again. */
  readonly refreshMs: number;
}

export interface PathProbeSelector {
  /** The probes for one resolution; starts a background re-read when the reading is stale. */
  probes(): PathProbes;
  /** Reads the mount table now and reports the mode it gives. */
  report(): Promise<PathProbeReport>;
}

const UNREADABLE: MountTableVerdict = { local: false, mountPoint: "(no mount table)", type: "-" };

function reportOf(verdict: MountTableVerdict | undefined): PathProbeReport {
  if (verdict === undefined) {
    return { mode: "thread-pool", reason: "the mount table has not been read yet" };
  }
  if (verdict.local) return { mode: "in-process", reason: "every mounted file system is local" };
  return {
    mode: "thread-pool",
    reason: `${verdict.mountPoint} is a ${verdict.type} mount, whose lookups may block`,
  };
}

/**
 * Chooses the judge's probes from the mount table (ADR 0009). A lookup on a local file
 * system answers in microseconds, while a thread-pool round trip costs a cross-thread
 * wake-up (hundreds of microseconds right after a spawn, and a dearer next `fork`); but
 * an in-process lookup on a hung network or FUSE mount would stall the host's event
 * loop. So the judge probes in-process only while every mount is local, and through the
 * thread pool otherwise, or until the table has been read. The reading is refreshed in
 * the background once it is older than `refreshMs`, never on the calling path.
 */
export function createPathProbeSelector(options: PathProbeSelectorOptions): PathProbeSelector {
  let verdict: MountTableVerdict | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<MountTableVerdict> | undefined;
  const read = () => {
    reading ??= options
      .readMountTable()
      .then(classifyMountTable, () => UNREADABLE)
      .then((fresh) => {
        verdict = fresh;
        readAt = options.now();
        reading = undefined;
        return fresh;
      });
    return reading;
  };
  return {
    probes() {
      // A negative age is a clock that restarted (a process resumed from a snapshot).
      const age = options.now() - readAt;
      if (reading === undefined && (age < 0 || age >= options.refreshMs)) void read();
      return verdict?.local === true ? IN_PROCESS : THREAD_POOL;
    },
    async report() {
      return reportOf(await read());
    },
  };
}

const MOUNT_TABLE = "/proc/self/mountinfo";

const hostSelector = createPathProbeSelector({
  readMountTable: () => readFile(MOUNT_TABLE, "utf8"),
  now: () => performance.now(),
  refreshMs: 1000,
});

/** The host's probes for one resolution (see `createPathProbeSelector`). */
export function pathProbes(): PathProbes {
  return hostSelector.probes();
}

/** The mode the judge uses on this host, after reading the mount table now. */
export function pathProbeReport(): Promise<PathProbeReport> {
  return hostSelector.report();
}
