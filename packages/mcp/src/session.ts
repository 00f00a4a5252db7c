import { homedir } from "node:os";
import {
  type Registry,
  type RegistryOptions,
  type ResourceLimits,
  registry,
  type ShellLimits,
  setUnbridled,
} from "agent-bridle";
import type { LimitSettings } from "./config-file.js";
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
] as const;

/** The `[limits]` that bound each call's process tree (the others keep their defaults). */
function resourceLimits(limits: LimitSettings): ResourceLimits | undefined {
  const given = RESOURCE_LIMIT_KEYS.filter((key) => limits[key] !== undefined);
  if (given.length === 0) return undefined;
  return Object.fromEntries(given.map((key) => [key, limits[key]])) as ResourceLimits;
}

/** The facade options for a resolved configuration (`[fs]`, `[limits]`, `[engine]`, `[git]`). */
export function registryOptionsFor(
  resolution: GrantResolution,
  options: { readonly forMcp?: boolean } = {},
): RegistryOptions {
  const fs = resolution.config?.fs ?? {};
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
    baseDir: fs.baseDir,
  };
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
  });
  const stop = () => void server.close();
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  await server.closed;
}
