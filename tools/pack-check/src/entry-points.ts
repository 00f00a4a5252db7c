/** What a consumer can import from a package: each `exports` subpath (no patterns). */
export interface EntryPoint {
  /** The specifier a consumer writes, e.g. `@agent-bridle/core/caveats.schema.json`. */
  readonly specifier: string;
  readonly json: boolean;
}

interface Manifest {
  readonly name: string;
  readonly exports?: unknown;
  readonly main?: unknown;
}

/**
 * The entry points a manifest declares: every key of `exports` (a string or condition
 * object at the top is the `.` entry), `./package.json` and `*` patterns left out; with no
 * `exports`, the package name itself when it has a `main`.
 */
export function entryPointsOf(manifest: Manifest): EntryPoint[] {
  const { exports } = manifest;
  if (exports === undefined || exports === null) {
    return manifest.main === undefined ? [] : [{ specifier: manifest.name, json: false }];
  }
  if (typeof exports === "string" || Array.isArray(exports)) {
    return [{ specifier: manifest.name, json: false }];
  }
  const keys = Object.keys(exports as Record<string, unknown>);
  if (!keys.every((key) => key.startsWith("."))) {
    return [{ specifier: manifest.name, json: false }];
  }
  return keys
    .filter((key) => key !== "./package.json" && !key.includes("*"))
    .map((key) => ({
      specifier: key === "." ? manifest.name : `${manifest.name}/${key.slice(2)}`,
      json: key.endsWith(".json"),
    }));
}
