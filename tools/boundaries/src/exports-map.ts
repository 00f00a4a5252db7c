/**
 * Whether `subpath` (`"."` or `"./x"`) is exported by a package.json `exports` field.
 * A missing field, a string, an array or a bare conditions object export only `"."`.
 * Keys may hold one `*` (subpath patterns); a `null` target excludes the subpath.
 */
export function isExportedSubpath(exportsField: unknown, subpath: string): boolean {
  if (exportsField === null || typeof exportsField !== "object" || Array.isArray(exportsField)) {
    return subpath === ".";
  }
  const entries = Object.entries(exportsField);
  if (!entries.some(([key]) => key.startsWith("."))) return subpath === ".";
  const exact = entries.find(([key]) => key === subpath);
  if (exact !== undefined) return exact[1] !== null;
  const pattern = entries
    .filter(([key]) => matchesPattern(key, subpath))
    .sort(([a], [b]) => b.length - a.length)[0];
  return pattern !== undefined && pattern[1] !== null;
}

function matchesPattern(key: string, subpath: string): boolean {
  const star = key.indexOf("*");
  if (star < 0 || key.indexOf("*", star + 1) >= 0) return false;
  const prefix = key.slice(0, star);
  const suffix = key.slice(star + 1);
  return (
    subpath.length >= prefix.length + suffix.length &&
    subpath.startsWith(prefix) &&
    subpath.endsWith(suffix)
  );
}
