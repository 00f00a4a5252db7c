import { TRUSTED_PATH } from "@agent-bridle/core";
import { isDeniedVariable } from "./environment-denylist.js";

export interface ChildEnvironmentRequest {
  /** The child's `HOME` (configured or the request's; never the host's implicitly). */
  readonly home: string;
  /** The child's `TMPDIR` (the per-call private directory when one was asked for). */
  readonly tmpdir: string;
  /** Variables the caller asks for; denylisted names are dropped. */
  readonly callerEnv?: Readonly<Record<string, string | undefined>> | undefined;
  /** Variables the engine sets for its own runtime (`huge-pages.ts`): after the caller's. */
  readonly runtimeEnv?: Readonly<Record<string, string>> | undefined;
  /** A host allow-list's proxy variables (network.md §4): set after the caller's, so they win. */
  readonly proxyEnv?: Readonly<Record<string, string>> | undefined;
}

/**
 * The environment of every spawned child, built from scratch (spec §6): the trusted
 * `PATH`, `LC_ALL=C`, `HOME` and `TMPDIR` as configured, then the caller's variables
 * minus the denylist, then the engine's runtime variables, then a host allow-list's proxy
 * variables. The host's own environment is never read.
 */
export function buildChildEnvironment(
  request: ChildEnvironmentRequest,
): Readonly<Record<string, string>> {
  const env: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(request.callerEnv ?? {})) {
    if (value === undefined || value.includes("\0") || isDeniedVariable(name)) continue;
    env[name] = value;
  }
  env.PATH = TRUSTED_PATH;
  env.LC_ALL = "C";
  env.HOME = request.home;
  env.TMPDIR = request.tmpdir;
  Object.assign(env, request.runtimeEnv, request.proxyEnv);
  return Object.freeze({ ...env });
}

/** The caller variable names the funnel dropped (names only: values are never echoed). */
export function droppedVariableNames(
  callerEnv: Readonly<Record<string, string | undefined>> | undefined,
): string[] {
  return Object.keys(callerEnv ?? {})
    .filter((name) => isDeniedVariable(name))
    .sort();
}
