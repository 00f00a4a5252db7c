import path from "node:path";
import {
  type Caveats,
  ConfigurationError,
  caveatsToJson,
  parseCaveats,
  shellSelection,
} from "agent-bridle";
import {
  type BlockedSettings,
  type ConfigFile,
  type EngineName,
  type EngineSettings,
  isEngineName,
  readConfigFile,
} from "./config-file.js";

export const CAVEATS_VARIABLE = "AGENT_BRIDLE_CAVEATS";
export const ENGINE_VARIABLE = "AGENT_BRIDLE_ENGINE";
export const MODE_VARIABLE = "BRIDLE_MODE";
export const UNBRIDLE_VARIABLE = "AGENT_BRIDLE_UNBRIDLE";
export const UNBRIDLE_ACK = "i-understand-this-is-dangerous";
/** The base directory, for clients configured by JSON (beats `[fs] baseDir`). */
export const BASE_DIR_VARIABLE = "AGENT_BRIDLE_BASE_DIR";
/** Blocked paths separated like `PATH` (`:`; `;` on Windows), added to `[fs] blockedPaths`. */
export const BLOCKED_PATHS_VARIABLE = "AGENT_BRIDLE_BLOCKED_PATHS";

/** Every axis empty, no calls, no generation: what the server serves with no configuration. */
export function denyAll(): Caveats {
  return parseCaveats({
    fs_read: { only: [] },
    fs_write: { only: [] },
    exec: { only: [] },
    net: { only: [] },
    max_calls: { at_most: 0 },
    valid_for_generation: { only: [] },
  });
}

/** Where the session grant came from (reference §11.3, adapted by spec §13 case 100). */
export type Provenance =
  | { readonly kind: "env"; readonly variable: string }
  | { readonly kind: "config-file"; readonly path: string }
  | { readonly kind: "deny-all-default" }
  | { readonly kind: "unbridle-refused"; readonly reason: string };

export interface GrantResolution {
  readonly caveats: Caveats;
  readonly provenance: Provenance;
  /** Both unbridle keys were given: the kernel mechanism is dropped, the grant still gates. */
  readonly unbridled: boolean;
  /** The config file, when one exists ([fs], [limits], [engine] apply whatever the grant source). */
  readonly config: ConfigFile | undefined;
  /** `[engine]`, with `AGENT_BRIDLE_ENGINE` taking precedence over the file. */
  readonly engine: EngineSettings;
  /** `AGENT_BRIDLE_BASE_DIR`, else `[fs] baseDir`. */
  readonly baseDir: string | undefined;
  /** `[fs]`'s blocked paths with `AGENT_BRIDLE_BLOCKED_PATHS` added. */
  readonly blocked: BlockedSettings;
}

export interface ResolveOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user's home, where `.agent-bridle/config.toml` is looked for. */
  readonly home: string | undefined;
}

export function configPath(home: string): string {
  return path.join(home, ".agent-bridle", "config.toml");
}

function engineFromEnv(env: ResolveOptions["env"]): EngineName | undefined {
  const raw = env[ENGINE_VARIABLE]?.trim();
  if (raw === undefined || raw === "") return undefined;
  if (isEngineName(raw)) return raw;
  throw new ConfigurationError(
    `${ENGINE_VARIABLE} must be "brush", "safe", "host" or "none", got ${JSON.stringify(raw)}`,
    { code: "CONFIG_INVALID_OPTION" },
  );
}

/** The banner's line about the engine serving `shell`. */
export function engineDescription(shell: EngineName | undefined): string {
  switch (shell) {
    case "brush":
      return "bash engine (brush, chosen)";
    case "safe":
      return "safe subset (chosen)";
    case "host":
      return "host bash (opted in)";
    case "none":
      return "none (chosen)";
    default:
      return shellSelection().engine === "brush"
        ? "bash engine (brush, the default here)"
        : `safe subset (the default on ${process.platform}, where the bash engine is not supported)`;
  }
}

function baseDirFromEnv(env: ResolveOptions["env"]): string | undefined {
  const raw = env[BASE_DIR_VARIABLE];
  if (raw === undefined || raw.trim() === "") return undefined;
  if (!path.isAbsolute(raw))
    throw new ConfigurationError(
      `${BASE_DIR_VARIABLE} must be an absolute path, got ${JSON.stringify(raw)}`,
      { code: "CONFIG_INVALID_OPTION" },
    );
  return raw;
}

function blockedFromEnv(env: ResolveOptions["env"]): readonly string[] {
  const raw = env[BLOCKED_PATHS_VARIABLE];
  if (raw === undefined || raw.trim() === "") return [];
  const entries = raw.split(path.delimiter).filter((entry) => entry !== "");
  for (const entry of entries) {
    if (!path.isAbsolute(entry) && !entry.startsWith("**/"))
      throw new ConfigurationError(
        `${BLOCKED_PATHS_VARIABLE}: entry ${JSON.stringify(entry)} must be an absolute path or a "**/"-anchored name pattern`,
        { code: "CONFIG_INVALID_OPTION" },
      );
  }
  return entries;
}

function settingsOf(env: ResolveOptions["env"], config: ConfigFile | undefined) {
  const fromEnv = blockedFromEnv(env);
  const blocked = config?.blocked ?? {};
  return {
    baseDir: baseDirFromEnv(env) ?? config?.fs.baseDir,
    blocked:
      fromEnv.length === 0
        ? blocked
        : { ...blocked, blockedPaths: [...(blocked.blockedPaths ?? []), ...fromEnv] },
  };
}

/**
 * Resolves the one session grant: `AGENT_BRIDLE_CAVEATS` (JSON), then the `[caveats]`
 * table of `~/.agent-bridle/config.toml`, else deny-all (never `top()`). A present but
 * invalid source throws a `ConfigurationError` naming it. Then the unbridle posture:
 * `BRIDLE_MODE=unbridle` (trimmed, any case) and the exact acknowledgement unbridle
 * (grant unchanged); the mode with a wrong or missing acknowledgement is deny-all; the
 * acknowledgement alone does nothing. `AGENT_BRIDLE_NO_STEPUP` is not read.
 */
export async function resolveGrant(options: ResolveOptions): Promise<GrantResolution> {
  const { env } = options;
  const config =
    options.home === undefined ? undefined : await readConfigFile(configPath(options.home));
  const shellFromEnv = engineFromEnv(env);
  const settings = settingsOf(env, config);
  const engine: EngineSettings = {
    ...(config?.engine ?? {}),
    ...(shellFromEnv === undefined ? {} : { shell: shellFromEnv }),
  };

  let caveats: Caveats;
  let provenance: Provenance;
  const fromEnv = env[CAVEATS_VARIABLE];
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    let json: unknown;
    try {
      json = JSON.parse(fromEnv);
    } catch (error) {
      throw new ConfigurationError(`${CAVEATS_VARIABLE} is not valid JSON`, {
        code: "CONFIG_INVALID_CAVEATS",
        cause: error,
      });
    }
    try {
      caveats = parseCaveats(json);
    } catch (error) {
      throw new ConfigurationError(`${CAVEATS_VARIABLE}: ${(error as Error).message}`, {
        code: "CONFIG_INVALID_CAVEATS",
        cause: error,
      });
    }
    provenance = { kind: "env", variable: CAVEATS_VARIABLE };
  } else if (config?.caveats !== undefined) {
    caveats = config.caveats;
    provenance = { kind: "config-file", path: config.path };
  } else {
    caveats = denyAll();
    provenance = { kind: "deny-all-default" };
  }

  const mode = env[MODE_VARIABLE]?.trim().toLowerCase();
  if (mode === "unbridle") {
    const ack = env[UNBRIDLE_VARIABLE];
    if (ack !== UNBRIDLE_ACK) {
      const reason =
        ack === undefined || ack === ""
          ? `${MODE_VARIABLE}=unbridle without ${UNBRIDLE_VARIABLE}`
          : `${UNBRIDLE_VARIABLE} is not the exact acknowledgement`;
      return {
        caveats: denyAll(),
        provenance: { kind: "unbridle-refused", reason },
        unbridled: false,
        config,
        engine,
        ...settings,
      };
    }
    return { caveats, provenance, unbridled: true, config, engine, ...settings };
  }
  return { caveats, provenance, unbridled: false, config, engine, ...settings };
}

/** The stderr banner stating where the grant came from (stdout carries only the protocol). */
export function provenanceBanner(resolution: GrantResolution, program: string): string {
  const grant = caveatsToJson(resolution.caveats);
  const { provenance } = resolution;
  const lines: string[] = [];
  switch (provenance.kind) {
    case "env":
      lines.push(`${program}: grant from ${provenance.variable}: ${grant}`);
      break;
    case "config-file":
      lines.push(`${program}: grant from ${provenance.path} [caveats]: ${grant}`);
      break;
    case "deny-all-default":
      lines.push(
        `${program}: DENY-ALL: no ${CAVEATS_VARIABLE} and no [caveats] in ~/.agent-bridle/config.toml; failing closed, every call is refused`,
      );
      break;
    case "unbridle-refused":
      lines.push(
        `${program}: REFUSING TO UNBRIDLE (${provenance.reason}); DENY-ALL, fail-closed: every call is refused`,
      );
      break;
  }
  if (resolution.unbridled) {
    const bar = "!".repeat(72);
    lines.unshift(
      bar,
      `!! ${program}: UNBRIDLED. The kernel sandbox is OFF for this session.`,
      "!! The grant below is still checked by the engines, but nothing bounds what a",
      "!! granted program does. Every result discloses unbridled: true.",
      bar,
    );
  }
  lines.push(`${program}: shell engine: ${engineDescription(resolution.engine.shell)}`);
  lines.push(
    `${program}: base directory: ${resolution.baseDir ?? `none (set ${BASE_DIR_VARIABLE} or [fs] baseDir; the client's first root is used when it offers roots)`}`,
  );
  const added = resolution.blocked.blockedPaths ?? [];
  if (added.length > 0)
    lines.push(
      `${program}: blocked paths ${resolution.blocked.replaceDefaultBlockedPaths === true ? "(replacing the defaults)" : "(added to the defaults)"}: ${added.join(", ")}`,
    );
  return `${lines.join("\n")}\n`;
}
