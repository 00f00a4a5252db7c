import { homedir } from "node:os";
import path from "node:path";
import {
  type PathPolicy,
  type Registry,
  type RegistryOptions,
  type ResourceLimits,
  registry,
  type ShellLimits,
  setUnbridled,
  userPathPolicy,
} from "agent-bridle";
import type { BlockedSettings, LimitSettings } from "./config-file.js";
import { type GrantResolution, provenanceBanner, resolveGrant } from "./grant-source.js";
import { serveMcp } from "./server.js";

function userHome(): string | undefined {
  try {
    const home = homedir();
    return home === "" ? undefined : home;
  } catch {
    return undefined;
  }
}

/**
 * The server's default `timeout_secs`: below the 60 s after which MCP clients commonly give
 * up on a request, so a call's own timeout ends it first and its output reaches the model.
 */
export const MCP_DEFAULT_TIMEOUT_SECS = 45;

function shellLimits(limits: LimitSettings, forMcp: boolean): Partial<ShellLimits> {
  const defaultTimeoutSecs =
    limits.defaultTimeoutSecs ?? (forMcp ? MCP_DEFAULT_TIMEOUT_SECS : undefined);
  return {
    ...(defaultTimeoutSecs === undefined ? {} : { defaultTimeoutSecs }),
    ...(limits.maxTimeoutSecs === undefined ? {} : { maxTimeoutSecs: limits.maxTimeoutSecs }),
    ...(limits.maxOutputBytes === undefined ? {} : { maxOutputBytes: limits.maxOutputBytes }),
  };
}

const RESOURCE_LIMIT_KEYS = [
  "maxProcesses",
  "treeMemoryBytes",
  "fileSizeBytes",
  "openFiles",
  "privateTmpBytes",
  "niceness",
] as const;

/** The `[limits]` that bound each call's process tree (the others keep their defaults). */
function resourceLimits(limits: LimitSettings): ResourceLimits | undefined {
  const given = RESOURCE_LIMIT_KEYS.filter((key) => limits[key] !== undefined);
  if (given.length === 0) return undefined;
  return Object.fromEntries(given.map((key) => [key, limits[key]])) as ResourceLimits;
}

/**
 * The locations no grant reaches, for every tool: the user's defaults with `[fs]
 * blockedPaths` added (or the read defaults replaced by them, explicitly), and
 * `writeBlockedPaths` added to the write-only defaults, which are never replaced.
 */
export function pathPolicyFor(blocked: BlockedSettings): PathPolicy {
  const defaults = userPathPolicy();
  const entries = blocked.blockedPaths ?? [];
  return {
    blocked:
      blocked.replaceDefaultBlockedPaths === true
        ? [...entries]
        : [...defaults.blocked, ...entries],
    writeBlocked: [...defaults.writeBlocked, ...(blocked.writeBlockedPaths ?? [])],
  };
}

function within(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * The meet of two directory lists (`undefined`: no restriction): each entry of one that
 * lies within an entry of the other. Never wider than either.
 */
export function meetDirectories(
  a: readonly string[] | undefined,
  b: readonly string[] | undefined,
): readonly string[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const meet = new Set<string>();
  for (const x of a)
    for (const y of b) {
      if (within(x, y)) meet.add(x);
      else if (within(y, x)) meet.add(y);
    }
  return [...meet];
}

/** The facade options for a resolved configuration (`[fs]`, `[limits]`, `[engine]`, `[git]`). */
export function registryOptionsFor(
  resolution: GrantResolution,
  options: {
    readonly forMcp?: boolean;
    /** The client's MCP roots (absolute directories), when it offers them. */
    readonly roots?: readonly string[] | undefined;
  } = {},
): RegistryOptions {
  const { roots } = options;
  const configured = resolution.config?.fs ?? {};
  const baseDir = resolution.baseDir ?? roots?.[0];
  const allowedPaths = meetDirectories(configured.allowedPaths, roots);
  const policy = pathPolicyFor(resolution.blocked);
  const fs = {
    ...configured,
    ...(baseDir === undefined ? {} : { baseDir }),
    ...(allowedPaths === undefined ? {} : { allowedPaths: [...allowedPaths] }),
    blockedPaths: { blocked: [...policy.blocked], writeBlocked: [...policy.writeBlocked] },
  };
  const limits = resolution.config?.limits ?? {};
  const { engine } = resolution;
  const bounds = resourceLimits(limits);
  return {
    // Absent: the facade's default (the bash engine where supported, else the safe subset).
    shell: engine.shell ?? "default",
    shellOptions: {
      ...(engine.home === undefined ? {} : { home: engine.home }),
      ...(engine.tmpdir === undefined ? {} : { tmpdir: engine.tmpdir }),
      limits: shellLimits(limits, options.forMcp === true),
      ...(bounds === undefined ? {} : { resourceLimits: bounds }),
      ...(resolution.config?.git === undefined ? {} : { gitIdentity: resolution.config.git }),
    },
    files: fs,
    baseDir,
    pathPolicy: policy,
  };
}

/** What a refused call says when the session is deny-all for want of a grant. */
function denyAllNotice(resolution: GrantResolution): string | undefined {
  switch (resolution.provenance.kind) {
    case "deny-all-default":
      return "denied: no grant is configured, so this server refuses every call (deny-all); the user sets one in AGENT_BRIDLE_CAVEATS or in [caveats] of ~/.agent-bridle/config.toml";
    case "unbridle-refused":
      return `denied: the server refused to unbridle (${resolution.provenance.reason}) and refuses every call (deny-all)`;
    default:
      return undefined;
  }
}

export interface ServerProcessOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stderr: { write(text: string): unknown };
  readonly program?: string;
}

/**
 * What `agent-bridle-mcp` and `bridle mcp` do: resolve the session grant, announce it on
 * stderr, unbridle when both keys are given, build the facade registry, mint the one
 * session grant and serve MCP on stdin/stdout until the input ends.
 */
export async function runMcpServer(options: ServerProcessOptions): Promise<void> {
  const program = options.program ?? "agent-bridle-mcp";
  const resolution = await resolveGrant({ env: options.env, home: userHome() });
  if (resolution.unbridled) setUnbridled();
  options.stderr.write(provenanceBanner(resolution, program));
  const served: Registry = registry(registryOptionsFor(resolution, { forMcp: true }));
  const grant = served.mintGrant(resolution.caveats);
  const limits = resolution.config?.limits ?? {};
  const server = await serveMcp({
    registry: served,
    grant,
    maxFrameBytes: limits.maxFrameBytes,
    maxConcurrentCalls: limits.maxConcurrentCalls,
    maxModelOutputBytes: limits.maxModelOutputBytes,
    heartbeatMs: limits.heartbeatSecs === undefined ? undefined : limits.heartbeatSecs * 1000,
    denyAllNotice: denyAllNotice(resolution),
    registryForRoots: (roots) => {
      options.stderr.write(`${program}: the client's roots: ${roots.join(", ")}\n`);
      return registry(registryOptionsFor(resolution, { forMcp: true, roots }));
    },
  });
  const stop = () => void server.close();
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  await server.closed;
}
