import { ConfigurationError } from "@agent-bridle/core";
import type { LauncherPolicy } from "./types.js";

function checkPath(directive: string, path: string): string {
  if (!path.startsWith("/")) {
    throw new ConfigurationError(`launcher policy: ${directive} path must be absolute: ${path}`);
  }
  if (/[\n\r\0]/.test(path)) {
    throw new ConfigurationError(`launcher policy: ${directive} path contains a newline or NUL`);
  }
  return path;
}

function checkCount(directive: string, value: number, min: number): string {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new ConfigurationError(`launcher policy: ${directive} must be an integer >= ${min}`);
  }
  return String(value);
}

/** Renders the typed policy as the launcher's protocol text (docs/launcher-protocol.md). */
export function renderLauncherPolicy(policy: LauncherPolicy): string {
  const lines = [
    "version 1",
    `fs-read ${policy.fsRead}`,
    `fs-write ${policy.fsWrite}`,
    `exec ${policy.exec}`,
  ];
  for (const [directive, paths] of [
    ["read", policy.read],
    ["write", policy.write],
    ["execute", policy.execute],
    ["mask", policy.mask],
    ["view-ro", policy.viewReadOnly],
    ["view-rw", policy.viewReadWrite],
    ["protect", policy.protect],
  ] as const) {
    for (const path of paths ?? []) lines.push(`${directive} ${checkPath(directive, path)}`);
  }
  const proxy = policy.netProxy ?? [];
  const netModes = [policy.netDenyAll === true, policy.netAll === true, proxy.length > 0];
  if (netModes.filter(Boolean).length > 1) {
    throw new ConfigurationError("launcher policy: net is one of deny-all, all or proxy");
  }
  if (policy.netDenyAll === true) lines.push("net deny-all");
  if (policy.netAll === true) lines.push("net all");
  if (proxy.length > 0) lines.push("net proxy");
  if (proxy.length > 4) throw new ConfigurationError("launcher policy: at most 4 proxy ports");
  for (const { port } of proxy) {
    if (!Number.isSafeInteger(port) || port < 1 || port > 65535) {
      throw new ConfigurationError("launcher policy: proxy port must be between 1 and 65535");
    }
    lines.push(`proxy ${port}`);
  }
  for (const fd of policy.keepFds ?? []) {
    if (fd > 65535) throw new ConfigurationError("launcher policy: keep-fd must be <= 65535");
    lines.push(`keep-fd ${checkCount("keep-fd", fd, 3)}`);
  }
  if (policy.rlimitFsize !== undefined) {
    lines.push(`rlimit-fsize ${checkCount("rlimit-fsize", policy.rlimitFsize, 0)}`);
  }
  if (policy.rlimitAs !== undefined) {
    lines.push(`rlimit-as ${checkCount("rlimit-as", policy.rlimitAs, 0)}`);
  }
  if (policy.rlimitNofile !== undefined) {
    lines.push(`rlimit-nofile ${checkCount("rlimit-nofile", policy.rlimitNofile, 16)}`);
  }
  if (policy.memoryMax !== undefined) {
    lines.push(`memory-max ${checkCount("memory-max", policy.memoryMax, 1 << 20)}`);
  }
  if (policy.tmpfsBytes !== undefined) {
    lines.push(`tmpfs-size ${checkCount("tmpfs-size", policy.tmpfsBytes, 4096)}`);
  }
  if (policy.maxProcs !== undefined) {
    lines.push(`max-procs ${checkCount("max-procs", policy.maxProcs, 1)}`);
  }
  if (policy.nice !== undefined) {
    if (policy.nice > 19) throw new ConfigurationError("launcher policy: nice must be <= 19");
    lines.push(`nice ${checkCount("nice", policy.nice, 0)}`);
  }
  if (policy.cwd !== undefined) lines.push(`cwd ${checkPath("cwd", policy.cwd)}`);
  return `${lines.join("\n")}\n`;
}
