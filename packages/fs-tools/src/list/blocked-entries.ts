import path from "node:path";
import { checkBlocked, foldPathName, type PathPolicy } from "@agent-bridle/core";

const ANY = "**";

/** The last name an entry pattern must match, folded; `undefined` when it can end anywhere. */
function lastName(entry: string): string | undefined {
  const names = entry.split(/[\\/]/).filter((name) => name !== "" && name !== ".");
  while (names.at(-1) === ANY) names.pop();
  const last = names.at(-1);
  return last === undefined ? undefined : foldPathName(last);
}

/**
 * A test for the entries of one listed directory (itself not blocked): whether
 * `directory/name` is a blocked location for reading. Because the directory is not
 * blocked, an entry can only be blocked by a pattern whose last name (ignoring a trailing
 * `**`) is that entry's name, so names that no pattern ends with are passed over without
 * matching every pattern; the others are checked by core's `checkBlocked`.
 */
export function blockedEntryTest(policy: PathPolicy, directory: string): (name: string) => boolean {
  const endings = new Set<string>();
  let anyEnding = false;
  for (const entry of policy.blocked) {
    const name = lastName(entry);
    if (name === undefined || name === ANY) anyEnding = true;
    else endings.add(name);
  }
  return (name) =>
    (anyEnding || endings.has(foldPathName(name))) &&
    checkBlocked(policy, path.join(directory, name), "read").blocked;
}
