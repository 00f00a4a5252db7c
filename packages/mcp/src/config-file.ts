import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  type Caveats,
  ConfigurationError,
  type FileConfigOptions,
  parseCaveats,
} from "agent-bridle";
import { parse as parseToml, TomlError } from "smol-toml";

/** The engines `[engine] shell` and `AGENT_BRIDLE_ENGINE` name. */
export const ENGINE_NAMES = Object.freeze(["brush", "safe", "host", "none"] as const);
export type EngineName = (typeof ENGINE_NAMES)[number];

export function isEngineName(value: unknown): value is EngineName {
  return typeof value === "string" && (ENGINE_NAMES as readonly string[]).includes(value);
}

/** `[engine]`: which engine serves `shell`, and the children's `HOME`/`TMPDIR`. */
export interface EngineSettings {
  /**
   * `brush` the bash engine, `safe` the safe-subset engine, `host` the host bash engine
   * (opt-in), `none` no shell. Absent: the facade's default (the bash engine on Linux and
   * macOS, the safe-subset engine elsewhere).
   */
  readonly shell?: EngineName | undefined;
  readonly home?: string | undefined;
  readonly tmpdir?: string | undefined;
}

/**
 * `[limits]`: the server's own limits, the shell's timeouts and caps, and the resource
 * limits of each call's process tree (the sandbox's `ResourceLimits`; absent ones keep
 * `DEFAULT_RESOURCE_LIMITS`).
 */
export interface LimitSettings {
  /** Calls served at once; further calls wait their turn. Default 4. */
  readonly maxConcurrentCalls?: number | undefined;
  /** Largest JSON-RPC line accepted, in bytes. Default 16 MiB. */
  readonly maxFrameBytes?: number | undefined;
  /** Bytes of each of stdout and stderr the model receives (head and tail). Default 16 KiB. */
  readonly maxModelOutputBytes?: number | undefined;
  /** Seconds of silence before a call with a progress token gets a heartbeat. Default 10. */
  readonly heartbeatSecs?: number | undefined;
  readonly defaultTimeoutSecs?: number | undefined;
  readonly maxTimeoutSecs?: number | undefined;
  readonly maxOutputBytes?: number | undefined;
  /** Processes and threads of a call's tree at once. Default 512. */
  readonly maxProcesses?: number | undefined;
  /** Memory of a call's whole tree, in bytes (a memory cgroup). Default 4 GiB. */
  readonly treeMemoryBytes?: number | undefined;
  /** The largest file a call's programs may write, in bytes. Default 1 GiB. */
  readonly fileSizeBytes?: number | undefined;
  /** Open descriptors per process. Default 4096. */
  readonly openFiles?: number | undefined;
  /** Size of a call's private `/tmp`, in bytes. Default 512 MiB. */
  readonly privateTmpBytes?: number | undefined;
  /** Niceness of a call's tree (0 to 19; 0: the server's own priority). Default 10. */
  readonly niceness?: number | undefined;
}

/**
 * `[git]`: the identity (`name`, `email`, both required) of commits made in a call's
 * private home; absent: the engines' default (`agent-bridle`).
 */
export interface GitSettings {
  readonly name: string;
  readonly email: string;
}

/**
 * `[fs]`'s blocked paths: added to the defaults (the system and credential locations, and
 * for writes the configuration that runs code later), or replacing the read defaults
 * when `replaceDefaultBlockedPaths` is true. They bind every tool: the fs tools, and the
 * shell's interceptor and kernel view.
 */
export interface BlockedSettings {
  readonly blockedPaths?: readonly string[] | undefined;
  readonly writeBlockedPaths?: readonly string[] | undefined;
  readonly replaceDefaultBlockedPaths?: boolean | undefined;
}

/** What `~/.agent-bridle/config.toml` holds, validated. */
export interface ConfigFile {
  readonly path: string;
  /** `undefined` when the file has no `[caveats]` table (then: deny-all). */
  readonly caveats: Caveats | undefined;
  readonly fs: FileConfigOptions;
  readonly blocked: BlockedSettings;
  readonly limits: LimitSettings;
  readonly engine: EngineSettings;
  readonly git: GitSettings | undefined;
}

const TABLES = new Set(["caveats", "fs", "limits", "engine", "git"]);

const FS_KEYS = new Set([
  "baseDir",
  "allowedPaths",
  "maxFileSize",
  "maxWriteSize",
  "maxScanSize",
  "maxListEntries",
  "followSymlinks",
  "blockedPaths",
  "writeBlockedPaths",
  "replaceDefaultBlockedPaths",
]);

const LIMIT_KEYS: Record<string, keyof LimitSettings> = {
  max_concurrent_calls: "maxConcurrentCalls",
  max_frame_bytes: "maxFrameBytes",
  max_model_output_bytes: "maxModelOutputBytes",
  heartbeat_secs: "heartbeatSecs",
  default_timeout_secs: "defaultTimeoutSecs",
  max_timeout_secs: "maxTimeoutSecs",
  max_output_bytes: "maxOutputBytes",
  max_processes: "maxProcesses",
  tree_memory_bytes: "treeMemoryBytes",
  file_size_bytes: "fileSizeBytes",
  open_files: "openFiles",
  private_tmp_bytes: "privateTmpBytes",
  niceness: "niceness",
};

function fail(file: string, message: string, cause?: unknown): never {
  throw new ConfigurationError(
    `${file}: ${message}`,
    cause === undefined
      ? { code: "CONFIG_INVALID_OPTION" }
      : { code: "CONFIG_INVALID_OPTION", cause },
  );
}

function table(file: string, value: unknown, name: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    fail(file, `[${name}] must be a table`);
  return value as Record<string, unknown>;
}

function positiveInteger(file: string, where: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0)
    fail(file, `${where} must be a positive integer`);
  return value;
}

function niceness(file: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0 || value > 19)
    fail(file, "[limits] niceness must be an integer from 0 to 19");
  return value;
}

function absolutePath(file: string, where: string, value: unknown): string {
  if (typeof value !== "string" || !path.isAbsolute(value))
    fail(file, `${where} must be an absolute path`);
  return value;
}

function pathList(file: string, where: string, value: unknown): readonly string[] {
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== "string"))
    fail(file, `${where} must be an array of strings`);
  for (const entry of value as string[]) {
    if (!path.isAbsolute(entry) && !entry.startsWith("**/"))
      fail(
        file,
        `${where} entry ${JSON.stringify(entry)} must be an absolute path or a "**/"-anchored name pattern`,
      );
  }
  return value as string[];
}

function parseBlocked(file: string, raw: Record<string, unknown>): BlockedSettings {
  const blocked: {
    blockedPaths?: readonly string[];
    writeBlockedPaths?: readonly string[];
    replaceDefaultBlockedPaths?: boolean;
  } = {};
  if (raw.blockedPaths !== undefined)
    blocked.blockedPaths = pathList(file, "[fs] blockedPaths", raw.blockedPaths);
  if (raw.writeBlockedPaths !== undefined)
    blocked.writeBlockedPaths = pathList(file, "[fs] writeBlockedPaths", raw.writeBlockedPaths);
  if (raw.replaceDefaultBlockedPaths !== undefined) {
    if (typeof raw.replaceDefaultBlockedPaths !== "boolean")
      fail(file, "[fs] replaceDefaultBlockedPaths must be a boolean");
    if (raw.replaceDefaultBlockedPaths && raw.blockedPaths === undefined)
      fail(file, "[fs] replaceDefaultBlockedPaths = true needs the blockedPaths that replace them");
    blocked.replaceDefaultBlockedPaths = raw.replaceDefaultBlockedPaths;
  }
  return blocked;
}

function parseFs(file: string, all: Record<string, unknown>): FileConfigOptions {
  for (const key of Object.keys(all)) {
    if (!FS_KEYS.has(key)) fail(file, `[fs] has an unknown key ${JSON.stringify(key)}`);
  }
  const { blockedPaths, writeBlockedPaths, replaceDefaultBlockedPaths, ...raw } = all;
  // Field types are checked again by createFileConfig; shape errors are caught here so
  // the message names the file.
  if (raw.baseDir !== undefined) absolutePath(file, "[fs] baseDir", raw.baseDir);
  if (
    raw.allowedPaths !== undefined &&
    (!Array.isArray(raw.allowedPaths) ||
      raw.allowedPaths.some((entry) => typeof entry !== "string"))
  )
    fail(file, "[fs] allowedPaths must be an array of strings");
  if (raw.followSymlinks !== undefined && typeof raw.followSymlinks !== "boolean")
    fail(file, "[fs] followSymlinks must be a boolean");
  for (const key of ["maxFileSize", "maxWriteSize", "maxScanSize", "maxListEntries"]) {
    if (raw[key] !== undefined) positiveInteger(file, `[fs] ${key}`, raw[key]);
  }
  return raw as FileConfigOptions;
}

function parseLimits(file: string, raw: Record<string, unknown>): LimitSettings {
  const limits: Record<string, number> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = LIMIT_KEYS[key];
    if (field === undefined) fail(file, `[limits] has an unknown key ${JSON.stringify(key)}`);
    limits[field] =
      field === "niceness"
        ? niceness(file, value)
        : positiveInteger(file, `[limits] ${key}`, value);
  }
  return limits;
}

function parseEngine(file: string, raw: Record<string, unknown>): EngineSettings {
  const engine: { shell?: EngineName; home?: string; tmpdir?: string } = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === "shell") {
      if (!isEngineName(value))
        fail(file, '[engine] shell must be "brush", "safe", "host" or "none"');
      engine.shell = value;
    } else if (key === "home" || key === "tmpdir") {
      engine[key] = absolutePath(file, `[engine] ${key}`, value);
    } else {
      fail(file, `[engine] has an unknown key ${JSON.stringify(key)}`);
    }
  }
  return engine;
}

function parseGit(file: string, raw: Record<string, unknown>): GitSettings | undefined {
  if (Object.keys(raw).length === 0) return undefined;
  for (const key of Object.keys(raw)) {
    if (key !== "name" && key !== "email")
      fail(file, `[git] has an unknown key ${JSON.stringify(key)}`);
  }
  const field = (key: "name" | "email") => {
    const value = raw[key];
    if (typeof value !== "string" || value.trim() === "" || /\p{Cc}/u.test(value))
      fail(file, `[git] ${key} must be a non-empty string on one line`);
    return value;
  };
  return { name: field("name"), email: field("email") };
}

/** Validates a parsed config document (exported for tests). */
export function configFromDocument(file: string, document: Record<string, unknown>): ConfigFile {
  for (const key of Object.keys(document)) {
    if (!TABLES.has(key)) fail(file, `unknown table or key ${JSON.stringify(key)}`);
  }
  let caveats: Caveats | undefined;
  if (document.caveats !== undefined) {
    try {
      caveats = parseCaveats(table(file, document.caveats, "caveats"));
    } catch (error) {
      fail(file, `[caveats]: ${(error as Error).message}`, error);
    }
  }
  const fs = table(file, document.fs, "fs");
  return {
    path: file,
    caveats,
    fs: parseFs(file, fs),
    blocked: parseBlocked(file, fs),
    limits: parseLimits(file, table(file, document.limits, "limits")),
    engine: parseEngine(file, table(file, document.engine, "engine")),
    git: parseGit(file, table(file, document.git, "git")),
  };
}

/** Reads and validates the file; `undefined` when it does not exist. */
export async function readConfigFile(file: string): Promise<ConfigFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    fail(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`, error);
  }
  let document: Record<string, unknown>;
  try {
    document = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const where =
      error instanceof TomlError ? ` at line ${error.line}, column ${error.column}` : "";
    const first = (error as Error).message.split("\n")[0] ?? "";
    fail(file, `is not valid TOML${where}: ${first}`, error);
  }
  return configFromDocument(file, document);
}
