/**
 * Which axes an engine checks itself, in its own funnel (L2), for every operation the
 * axis covers. An axis the engine does not check (the host shell on exec) is only as
 * strong as the backend makes it.
 */
export interface EngineCoverage {
  readonly fs_read: boolean;
  readonly fs_write: boolean;
  readonly exec: boolean;
  readonly net: boolean;
}

/** An engine that checks nothing itself (it hands a whole script to a host program). */
export const NO_COVERAGE: EngineCoverage = Object.freeze({
  fs_read: false,
  fs_write: false,
  exec: false,
  net: false,
});

/** In-process tools and interceptors that gate every open and every spawn. */
export const FS_AND_EXEC_COVERAGE: EngineCoverage = Object.freeze({
  fs_read: true,
  fs_write: true,
  exec: true,
  net: false,
});
