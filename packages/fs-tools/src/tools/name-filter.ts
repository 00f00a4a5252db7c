/**
 * The glob dialect of the fs tools' name filters (`list_directory`'s `pattern`,
 * `search_files`' `include`): picomatch without extglobs.
 */
import picomatch from "picomatch";

const PATTERN_OPTIONS = Object.freeze({ noextglob: true });

/** Whether `pattern` is a glob of the dialect (for the argument schemas' `refine`). */
export function isGlobPattern(pattern: string): boolean {
  try {
    picomatch.makeRe(pattern, PATTERN_OPTIONS);
    return true;
  } catch {
    return false;
  }
}

/** A name filter for `pattern`, or `undefined` (every name) when there is none. */
export function globMatcher(pattern: string | undefined): ((name: string) => boolean) | undefined {
  return pattern === undefined ? undefined : picomatch(pattern, PATTERN_OPTIONS);
}
