import { access } from "node:fs/promises";
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
import { hostAllowList } from "./host-allow-list.js";
import { hostTopLevelLinks } from "./host-tree.js";
import { type PlantedConfiguration, watchPlanted } from "./planted-configuration.js";
import {
  BIN_DIRECTORIES,
  DEVICE_SINKS,
  DYNAMIC_LOADERS,
  RUNTIME_READ_CLOSURE,
} from "./runtime-closure.js";
import { writeProtected } from "./write-protected.js";

/**
 * Blocked absolute entries strictly inside a root of the view are hidden by the launcher,
 * which passes over an entry that is not there (so only entries inside a write root are
 * looked up here: one call reads no other file). Unmasked (the fence would be wider than
 * the grant): pattern entries (`**\/.ssh`) while any root is granted, and missing entries
 * inside a granted write root (they could be created). A root of the runtime closure
 * inside a blocked entry (`/etc/passwd` under `/etc`) is public by design and stays.
 */
async function masksFor(
  roots: readonly string[],
  writeRoots: readonly string[],
  blocked: readonly string[],
) {
  const mask: string[] = [];
  const unmasked: string[] = [];
  const inside = (entry: string, within: readonly string[]) =>
    within.some((root) => entry !== root && checkContained(entry, root));
  const exists = (entry: string) =>
    access(entry).then(
      () => entry,
      () => undefined,
    );
  const writable = blocked.filter((entry) => isAbsolute(entry) && inside(entry, writeRoots));
  const present = new Set(await Promise.all(writable.map(exists)));
  for (const entry of blocked) {
    if (!isAbsolute(entry)) {
      if (roots.length > 0) unmasked.push(entry);
    } else if (!inside(entry, roots)) {
      // outside the view: nothing to hide
    } else if (!inside(entry, writeRoots) || present.has(entry)) {
      mask.push(entry);
    } else {
      unmasked.push(entry);
    }
  }
  return { mask, unmasked };
}

/**
 * What the private view makes itself (kernel-boundary.md §2): never the host's, so a
 * blocked entry there has nothing to hide. (`/tmp` is the view's own too, but granted
 * paths beneath it are the host's and keep their masks.)
 */
const VIEW_OWNED = ["/proc", "/dev"];

export interface LauncherPolicyFor {
  readonly policy: LauncherPolicy;
  /** Blocked entries the view cannot hide (the floor then refuses: ADR 0001 §5.4). */
  readonly unmasked: string[];
  /** Write roots whose write-blocked files were not all found (disclosed). */
  readonly unprotected: string[];
  /** The roots searched for write-blocked files: searched again once the call ends. */
  readonly searched: readonly string[];
  /** Write-blocked git indirections missing at the start, moved aside if a program made them. */
  readonly planted: PlantedConfiguration;
}

/**
 * The launcher policy for the effective caveats (kernel-boundary.md §2, reference
 * §10.3). Landlock governs reads only when `fs_read` is restricted (granted roots, the
 * runtime closure, the granted binaries or the bin directories), writes when `fs_write`
 * is (granted roots, the funnel's private temp directory, the device sinks), execute
 * when `exec` is (resolved granted binaries, the engine's runtime programs, the dynamic
 * loader). The private view holds exactly those paths, or for an axis granted `all` the
 * host's tree less its blocked entries; blocked entries inside it are masked under every
 * grant, existing write-blocked configuration is bound read-only, and the network is the
 * host's only for `net: "all"` (a host allow-list gets its egress proxy's ports).
 */
export async function launcherPolicyOf(request: BackendPrepareRequest): Promise<LauncherPolicyFor> {
  const { caveats, pathPolicy, limits } = request;
  const blocked = pathPolicy.blocked;
  const readRestricted = caveats.fs_read !== "all";
  const writeRestricted = caveats.fs_write !== "all";
  const execRestricted = caveats.exec !== "all";
  const executables = execRestricted
    ? unique([
        ...(await grantedExecutables(caveats.exec, request.runtimeExecutables)),
        ...(await systemPathsWithRealpath(DYNAMIC_LOADERS)),
      ])
    : [];
  const writeRoots = writeRestricted
    ? await grantedRoots(caveats.fs_write, blocked, request.extraWriteRoots)
    : [];
  const closure = [
    ...(await systemPathsWithRealpath(RUNTIME_READ_CLOSURE)),
    ...(await withRealpath(request.runtimeReadPaths ?? [])),
  ];
  const readGranted = readRestricted ? await grantedRoots(caveats.fs_read, blocked, []) : ["/"];
  const readRoots = readRestricted
    ? unique([
        ...readGranted,
        ...(await grantedRoots("all", blocked, request.extraWriteRoots)),
        ...closure,
        ...(execRestricted ? executables : await systemPathsWithRealpath(BIN_DIRECTORIES)),
      ])
    : [];
  // An axis granted "all" shows the host's whole tree ("/"), less its blocked entries
  // (masked below); the runtime closure brings back the public parts of a masked `/etc`.
  const viewReadWrite = writeRestricted ? [] : ["/"];
  const viewReadOnly = unique([
    ...hostTopLevelLinks(),
    ...(readRestricted ? [] : ["/", ...closure]),
  ]);
  const granted = [...readGranted, ...writeRoots, ...viewReadWrite];
  const masks = await masksFor(granted, writeRoots, blocked);
  const mask = masks.mask.filter((entry) => !VIEW_OWNED.some((own) => checkContained(entry, own)));
  const unmasked = masks.unmasked;
  const searched = writeRestricted ? writeRoots : [request.cwd];
  const { protect, incomplete, gitDirs } = await writeProtected(searched, pathPolicy.writeBlocked);
  const planted = await watchPlanted(gitDirs, searched, pathPolicy.writeBlocked, protect);
  const policy: LauncherPolicy = {
    fsRead: readRestricted ? "restricted" : "all",
    fsWrite: writeRestricted ? "restricted" : "all",
    exec: execRestricted ? "restricted" : "all",
    read: readRoots,
    write: writeRestricted
      ? unique([...writeRoots, ...(await systemPathsWithRealpath(DEVICE_SINKS))])
      : [],
    execute: executables,
    viewReadOnly,
    viewReadWrite,
    protect,
    netDenyAll: caveats.net !== "all" && caveats.net.only.length === 0,
    netAll: caveats.net === "all",
    // A host allow-list: the only way out is the call's egress proxy.
    netProxy: hostAllowList(caveats) !== undefined ? request.netProxy : undefined,
    mask,
    keepFds: [...request.keepFds],
    cwd: request.cwd,
    rlimitFsize: limits.fileSizeBytes,
    rlimitAs: limits.memoryBytes,
    rlimitNofile: limits.openFiles,
    memoryMax: limits.treeMemoryBytes,
    tmpfsBytes: limits.privateTmpBytes,
    maxProcs: limits.maxProcesses,
    nice: limits.niceness,
  };
  return { policy, unmasked, unprotected: incomplete, searched, planted };
}
