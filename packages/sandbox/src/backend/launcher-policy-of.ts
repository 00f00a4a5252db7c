import { existsSync } from "node:fs";
import { isAbsolute } from "node:path";
import { checkContained } from "@agent-bridle/core";
import type { LauncherPolicy } from "../launcher/types.js";
import type { BackendPrepareRequest } from "./backend.js";
import {
  grantedExecutables,
  grantedRoots,
  systemPathsWithRealpath,
  unique,
  withRealpath,
} from "./granted-paths.js";
import {
  BIN_DIRECTORIES,
  DEVICE_SINKS,
  DYNAMIC_LOADERS,
  RUNTIME_READ_CLOSURE,
} from "./runtime-closure.js";

/**
 * Blocked absolute entries strictly inside a granted root are hidden by the launcher.
 * Unmasked (the fence would be wider than the grant): pattern entries (`**\/.ssh`) while
 * any root is granted, and missing entries inside a write root (they could be created).
 */
function masksFor(
  roots: readonly string[],
  writeRoots: readonly string[],
  blocked: readonly string[],
) {
  const mask: string[] = [];
  const unmasked: string[] = [];
  const inside = (entry: string, within: readonly string[]) =>
    within.some((root) => entry !== root && checkContained(entry, root));
  for (const entry of blocked) {
    if (!isAbsolute(entry)) {
      if (roots.length > 0) unmasked.push(entry);
      continue;
    }
    if (!inside(entry, roots)) continue;
    if (existsSync(entry)) mask.push(entry);
    else if (inside(entry, writeRoots)) unmasked.push(entry);
  }
  return { mask, unmasked };
}

/**
 * The launcher policy for the effective caveats (spec §6, reference §10.3): reads
 * governed only when `fs_read` is restricted (granted roots, the runtime closure, and
 * the granted binaries or the bin directories), writes when `fs_write` is (granted
 * roots, the funnel's private temp directory, the device sinks), execute when `exec`
 * is (resolved granted binaries, the engine's runtime programs, the dynamic loader),
 * `net deny-all` for `net only[]`, and masks for blocked paths inside granted roots.
 */
export async function launcherPolicyOf(
  request: BackendPrepareRequest,
): Promise<{ policy: LauncherPolicy; unmasked: string[] }> {
  const { caveats, pathPolicy } = request;
  const blocked = pathPolicy.blocked;
  const readRestricted = caveats.fs_read !== "all";
  const writeRestricted = caveats.fs_write !== "all";
  const execRestricted = caveats.exec !== "all";
  const executables = execRestricted
    ? unique([
        ...(await grantedExecutables(caveats.exec, request.runtimeExecutables)),
        ...systemPathsWithRealpath(DYNAMIC_LOADERS),
      ])
    : [];
  const writeRoots = writeRestricted
    ? grantedRoots(caveats.fs_write, blocked, request.extraWriteRoots)
    : [];
  const readRoots = readRestricted
    ? unique([
        ...grantedRoots(caveats.fs_read, blocked, request.extraWriteRoots),
        ...systemPathsWithRealpath(RUNTIME_READ_CLOSURE),
        ...withRealpath(request.runtimeReadPaths ?? []),
        ...(execRestricted ? executables : systemPathsWithRealpath(BIN_DIRECTORIES)),
      ])
    : [];
  const granted = [
    ...(readRestricted ? grantedRoots(caveats.fs_read, blocked, []) : []),
    ...writeRoots,
  ];
  const { mask, unmasked } = masksFor(granted, writeRoots, blocked);
  const policy: LauncherPolicy = {
    fsRead: readRestricted ? "restricted" : "all",
    fsWrite: writeRestricted ? "restricted" : "all",
    exec: execRestricted ? "restricted" : "all",
    read: readRoots,
    write: writeRestricted ? unique([...writeRoots, ...systemPathsWithRealpath(DEVICE_SINKS)]) : [],
    execute: executables,
    netDenyAll: caveats.net !== "all" && caveats.net.only.length === 0,
    mask,
    keepFds: [...request.keepFds],
    cwd: request.cwd,
    rlimitFsize: request.limits.fileSizeBytes,
    rlimitAs: request.limits.memoryBytes,
    maxProcs: request.limits.maxProcesses,
  };
  return { policy, unmasked };
}
