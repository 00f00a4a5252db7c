import path from "node:path";
import {
  ConfigurationError,
  judgePath,
  type PathOperation,
  type PathPolicy,
} from "@agent-bridle/core";
import { defaultBlockedPaths } from "./default-blocked-paths.js";
import { type FileConfigOptions, FileConfigSchema } from "./file-config-schema.js";

/**
 * Configuration for the file system tools (the contract is the seed document
 * `fs-tools-file-config.txt`).
 *
 * **How a path is judged.** By where it really is, not by how it is spelled: every
 * symbolic link is replaced by its real target, then the result is compared with each
 * entry, resolved the same way, one path component at a time. `isPathAllowed` judges the
 * path as given, and a `..` after a link is read both ways an OS reads it: physically, as
 * POSIX does (`link/..` is the parent of the link's target), and lexically, as Windows
 * does (`..` removed as text before links are followed, so `link/..` is the directory
 * holding the link). The path is allowed only when both locations are allowed, whatever
 * platform the check runs on; a path whose readings disagree, one inside and one outside,
 * is refused on every OS. The tools first remove `.` and `..` from the path they are
 * given as text (`data/link/../x` is `data/x` for them), so the two readings agree, and
 * then judge and open that location, so what they open is what they checked.
 * `/srv/data` allows `/srv/data/x` and does not allow `/srv/data-secret/x`. A symbolic
 * link that cannot be resolved (a dangling link) is refused. The tools open the resolved
 * path, so a link swapped in after the check does not redirect the open; a directory
 * swapped for a link between the resolution and the open is a race this narrows and does
 * not close. A hard link is not contained: a hard link inside an allowed directory to a
 * file elsewhere is that file under an allowed name, and no path check can tell it apart,
 * so do not let untrusted parties create files in an allowed directory.
 *
 * The tools judge every path by this configuration **and** by the grant's `fs_read` /
 * `fs_write` scope and the registry's `PathPolicy`: all of them must allow it.
 */
export interface FileConfig {
  /**
   * Maximum file size `read_file` reads whole, in bytes; also the most bytes one range
   * returns. Larger files are refused (`FS_TOO_LARGE`) with a hint to read a range.
   * @default 1 MiB (1_048_576)
   */
  readonly maxFileSize: number;
  /**
   * Maximum content `write_file` writes in one call, in bytes (UTF-8).
   * @default 1 MiB (1_048_576)
   */
  readonly maxWriteSize: number;
  /**
   * Most bytes `read_file` scans from the start of a file to find a line range; a line
   * beyond it must be read by byte range.
   * @default 64 MiB
   */
  readonly maxScanSize: number;
  /**
   * Ceiling of `list_directory`'s `limit`; a listing also stops after examining ten times
   * this many names (entries are streamed, never all loaded).
   * @default 10_000
   */
  readonly maxListEntries: number;
  /**
   * Paths that are allowed to be accessed. None (`undefined`) means any path the grant
   * allows. An entry that is itself reached through a symbolic link (such as `/tmp` on
   * macOS) is resolved, and so are the paths checked against it. Relative entries are
   * resolved against `baseDir` when the configuration is created.
   * @default undefined
   */
  readonly allowedPaths: readonly string[] | undefined;
  /**
   * Paths that are blocked from access (takes precedence over `allowedPaths`), applied in
   * addition to the registry's `PathPolicy`. Matched on the real location too, so blocking
   * `/etc` also blocks `/private/etc` on macOS, and the default `/var` also blocks
   * `/private/var`, where macOS keeps per-user temporary directories. Matched without
   * regard to case or Unicode normalisation, so `/ETC/hosts` is blocked by `/etc`, as it
   * must be on a case-insensitive file system such as the macOS and Windows defaults; on a
   * case-sensitive one this blocks a few more paths than it must, never fewer. Entries are
   * absolute paths or `**\/`-anchored name patterns; `writeBlocked` applies to writes only.
   * A blocklist is defence in depth: it cannot name every sensitive file, so set
   * `allowedPaths` to the directories the agent needs.
   * @default defaultBlockedPaths(): the system and credential locations of the platform
   * this process runs on, and for writes the agent configuration that runs code later
   */
  readonly blockedPaths: PathPolicy;
  /**
   * Whether to follow a symbolic link that is the final component of the path. When
   * `false`, `read_file` (and `write_file`) report such a link as not a regular file and
   * `file_info` and `list_directory` describe the link itself. This does not decide
   * whether a link may lead out of the allowed area: a link anywhere on the path, final or
   * not, is resolved first, and the path is allowed only if its real location is.
   * @default false (for security)
   */
  readonly followSymlinks: boolean;
  /**
   * Absolute directory relative paths resolve against. Without it a relative path is
   * refused (`FS_NO_BASE_DIR`); the host's working directory is never used.
   * @default undefined
   */
  readonly baseDir: string | undefined;
  /**
   * Whether this configuration alone (allowed paths, then blocked paths; no grant) allows
   * `path` for the operation. It judges the path as given: a `..` after a link is read
   * both physically and lexically and the path is allowed only when both locations are
   * allowed; a dangling link is refused. A relative path resolves against `baseDir`.
   * @param operation `"read"` (default) or `"write"` (also checks `writeBlocked`)
   */
  isPathAllowed(path: string, operation?: PathOperation): Promise<boolean>;
}

function resolveAllowed(entries: readonly string[] | undefined, baseDir: string | undefined) {
  if (entries === undefined) return undefined;
  return Object.freeze(
    entries.map((entry) => {
      if (path.isAbsolute(entry)) return entry;
      if (baseDir === undefined) {
        throw new ConfigurationError(
          `allowedPaths entry ${JSON.stringify(entry)} is relative and no baseDir is set`,
        );
      }
      return path.join(baseDir, entry);
    }),
  );
}

function freezePolicy(policy: PathPolicy): PathPolicy {
  return Object.freeze({
    blocked: Object.freeze([...policy.blocked]),
    writeBlocked: Object.freeze([...policy.writeBlocked]),
  });
}

/**
 * Validates the options and returns a frozen `FileConfig`; invalid options throw a
 * `ConfigurationError` (`CONFIG_INVALID_OPTION`) naming the field.
 */
export function createFileConfig(options: FileConfigOptions = {}): FileConfig {
  const parsed = FileConfigSchema.safeParse(options);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.map(String).join(".") || "(options)"}: ${issue.message}`)
      .join("; ");
    throw new ConfigurationError(`invalid FileConfig: ${issues}`, { cause: parsed.error });
  }
  const value = parsed.data;
  const allowedPaths = resolveAllowed(value.allowedPaths, value.baseDir);
  const blockedPaths = freezePolicy(value.blockedPaths ?? defaultBlockedPaths());
  const config: FileConfig = {
    maxFileSize: value.maxFileSize,
    maxWriteSize: value.maxWriteSize,
    maxScanSize: value.maxScanSize,
    maxListEntries: value.maxListEntries,
    allowedPaths,
    blockedPaths,
    followSymlinks: value.followSymlinks,
    baseDir: value.baseDir,
    async isPathAllowed(requested: string, operation: PathOperation = "read") {
      const decision = await judgePath({
        path: requested,
        baseDir: value.baseDir,
        op: operation,
        scope: "all",
        allowed: allowedPaths,
        policy: blockedPaths,
      });
      return decision.ok;
    },
  };
  return Object.freeze(config);
}
