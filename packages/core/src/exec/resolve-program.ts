import { join } from "node:path";
import { type PathProbes, pathProbes } from "../paths/path-probes.js";
import { TRUSTED_PATH } from "./trusted-path.js";

/** A spelling with no path separator (`git`), resolved only through a search path. */
export function isBareProgram(spelled: string): boolean {
  return !spelled.includes("/") && !spelled.includes("\\");
}

async function isExecutableFile(probes: PathProbes, candidate: string): Promise<boolean> {
  try {
    const info = await probes.stat(candidate);
    return info?.isFile() === true && (await probes.executable(candidate));
  } catch {
    return false;
  }
}

/**
 * Resolves a bare program name on a search path (default: the trusted `PATH`): the first
 * directory holding an executable regular file of that name, as spelled in the
 * directory (links not resolved). `undefined` when not found.
 */
export async function resolveOnSearchPath(
  name: string,
  searchPath: string = TRUSTED_PATH,
): Promise<string | undefined> {
  if (!isBareProgram(name) || name === "" || name === "." || name === "..") return undefined;
  const candidates = searchPath
    .split(":")
    .filter((directory) => directory.startsWith("/"))
    .map((directory) => join(directory, name));
  // Looked up together (through the thread pool: one round trip, not one per directory); the first
  // directory in order that holds an executable file wins, as a sequential search would.
  const probes = pathProbes();
  const found = await Promise.all(
    candidates.map((candidate) => isExecutableFile(probes, candidate)),
  );
  return candidates[found.indexOf(true)];
}
