import type { Caveats } from "@agent-bridle/core";
import { ConfigurationError, isLoopbackOnly } from "@agent-bridle/core";

/**
 * What a macOS program needs to read to start when `fs_read` is restricted: the dyld
 * shared cache, system frameworks and libraries, and base system data. EXPERIMENTAL:
 * written from Apple's published profiles, never run here (no macOS in CI).
 */
export const SEATBELT_READ_CLOSURE: readonly string[] = Object.freeze([
  "/System",
  "/usr/lib",
  "/usr/share",
  "/Library/Apple",
  "/private/var/db/dyld",
  "/private/var/db/timezone",
  "/private/etc/localtime",
  "/dev/urandom",
  "/dev/random",
  "/dev/null",
  "/dev/zero",
]);

/** macOS's bin directories: readable and executable when exec is unrestricted. */
const SEATBELT_BIN_DIRECTORIES: readonly string[] = [
  "/usr/bin",
  "/bin",
  "/usr/sbin",
  "/sbin",
  "/usr/local/bin",
  "/opt/homebrew/bin",
];

export interface SeatbeltProfileRequest {
  readonly caveats: Caveats;
  /** Absolute, resolved read roots granted beyond the caveats (none usually). */
  readonly extraWriteRoots: readonly string[];
  /** Files the engine's runtime reads (a bundled worker), readable when `fs_read` is restricted. */
  readonly runtimeReadPaths?: readonly string[] | undefined;
  /** Resolved granted executables (and the engine's runtime programs) when exec is restricted. */
  readonly executables: readonly string[];
  /** Absolute blocked paths of the `PathPolicy`: denied after every allow (last match wins). */
  readonly blocked: readonly string[];
}

/** An SBPL string literal; refuses what cannot be said safely in one. */
export function sbplString(path: string): string {
  if (!path.startsWith("/") || /[\0\n\r]/.test(path)) {
    throw new ConfigurationError(`seatbelt profile: refusing path ${JSON.stringify(path)}`);
  }
  return `"${path.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

const subpaths = (paths: readonly string[]) =>
  paths.map((path) => `(subpath ${sbplString(path)})`).join(" ");

function fileRules(request: SeatbeltProfileRequest): string[] {
  const { caveats } = request;
  const rules: string[] = [];
  if (caveats.fs_read === "all") rules.push("(allow file-read*)");
  else {
    const roots = [
      ...caveats.fs_read.only,
      ...request.extraWriteRoots,
      ...(request.runtimeReadPaths ?? []),
      ...SEATBELT_READ_CLOSURE,
    ];
    if (caveats.exec === "all") roots.push(...SEATBELT_BIN_DIRECTORIES);
    rules.push(`(allow file-read* ${subpaths(roots)})`, "(allow file-read-metadata)");
  }
  if (caveats.fs_write === "all") rules.push("(allow file-write*)");
  else {
    const roots = [...caveats.fs_write.only, ...request.extraWriteRoots];
    const sinks = '(literal "/dev/null") (literal "/dev/zero") (literal "/dev/full")';
    rules.push(`(allow file-write* ${roots.length > 0 ? `${subpaths(roots)} ` : ""}${sinks})`);
  }
  if (request.blocked.length > 0) {
    rules.push(`(deny file-read* file-write* ${subpaths(request.blocked)})`);
  }
  return rules;
}

function execRules(request: SeatbeltProfileRequest): string[] {
  if (request.caveats.exec === "all") return ["(allow process-exec*)"];
  const literals = request.executables.map((path) => `(literal ${sbplString(path)})`);
  // With no literal at all, nothing may be executed: the rule is omitted (deny default).
  return literals.length > 0
    ? [`(allow process-exec* ${literals.join(" ")})`, ...readExecutables(literals)]
    : [];
}

const readExecutables = (literals: readonly string[]) => [
  `(allow file-read* ${literals.join(" ")})`,
];

function networkRules(caveats: Caveats): string[] {
  if (caveats.net === "all") return ["(allow network*)"];
  if (isLoopbackOnly(caveats.net.only)) {
    return [
      '(allow network* (remote ip "localhost:*"))',
      '(allow network-bind (local ip "localhost:*"))',
    ];
  }
  // net only[] and host allow-lists: no direct sockets (a host allow-list is then
  // refused by the default floor; Seatbelt cannot bound it by name).
  return [];
}

/**
 * The Seatbelt (SBPL) profile for a call's effective caveats, for `sandbox-exec -p`.
 * Deny by default; allow what the grant allows plus the runtime closure; deny the
 * blocked paths last so they win. EXPERIMENTAL: unit-tested as text only.
 */
export function seatbeltProfile(request: SeatbeltProfileRequest): string {
  return [
    "(version 1)",
    "(deny default)",
    "(allow process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix-shm)",
    ...execRules(request),
    ...fileRules(request),
    ...networkRules(request.caveats),
    "",
  ].join("\n");
}
