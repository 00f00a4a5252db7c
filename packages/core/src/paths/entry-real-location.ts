import { lstatSync, realpathSync } from "node:fs";
import path from "node:path";
import { isMissingError } from "./fs-error-code.js";
import { hasDotSegment } from "./remove-dot-segments.js";

/** Where a name really is; `exists` is false past the deepest ancestor that resolves. */
type Located = { readonly real: string; readonly exists: boolean } | undefined;

function realpathOrMissing(name: string): string | null | undefined {
  try {
    return realpathSync.native(name);
  } catch (error) {
    return isMissingError(error) ? null : undefined;
  }
}

/**
 * Resolves blocked-path entries to their real locations in one pass, synchronously.
 * An entry's real location is its own when it exists, else its deepest existing
 * ancestor's real location with the missing tail re-appended; `undefined` when that
 * cannot be known (a loop, a missing entry spelled with `..`).
 *
 * Each directory on the entries' paths is looked up once per pass (a default policy's
 * eight home entries share one lookup of the home directory): one `lstat` per name, and
 * a `realpath` only for a name that is a link. A policy has a few dozen entries and the
 * judge resolves them on every call, so that its view is always current.
 */
export function createEntryResolver(): (entry: string) => string | undefined {
  const known = new Map<string, Located>();
  const locate = (name: string): Located => {
    const parent = path.dirname(name);
    if (parent === name) return { real: name, exists: true };
    const cached = known.get(name);
    if (cached !== undefined || known.has(name)) return cached;
    const above = locate(parent);
    let located: Located;
    if (above === undefined) located = undefined;
    else {
      const beneath = path.join(above.real, path.basename(name));
      located = { real: beneath, exists: false };
      if (above.exists) {
        try {
          const info = lstatSync(name, { throwIfNoEntry: false });
          if (info?.isSymbolicLink() === true) {
            const real = realpathOrMissing(name);
            located =
              real === undefined ? undefined : real === null ? located : { real, exists: true };
          } else if (info !== undefined) located = { real: beneath, exists: true };
        } catch (error) {
          if (!isMissingError(error)) located = undefined;
        }
      }
    }
    known.set(name, located);
    return located;
  };
  return (entry) => {
    if (!hasDotSegment(entry)) {
      const name = path.normalize(entry);
      const root = path.parse(name).root === name;
      const trimmed = !root && name.endsWith(path.sep) ? name.slice(0, -1) : name;
      return locate(trimmed)?.real;
    }
    // `..` after a link is read physically by `realpath`; missing, it cannot be placed.
    return realpathOrMissing(entry) ?? undefined;
  };
}
