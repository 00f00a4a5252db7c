/** One row of the layer table (spec README §2): a package may import only from layers below it. */
export interface LayerEntry {
  /** Folder name under `packages/`. */
  readonly directory: string;
  /** npm name, the only way other packages may import it. */
  readonly packageName: string;
  readonly layer: number;
  /** The three shell engines never import each other (same layer, named rule). */
  readonly shellEngine: boolean;
}

function entry(directory: string, layer: number, shellEngine = false): LayerEntry {
  const packageName = directory === "facade" ? "agent-bridle" : `@agent-bridle/${directory}`;
  return Object.freeze({ directory, packageName, layer, shellEngine });
}

/** Lowest layer first. A new package must be added here before the check passes. */
export const LAYERS: readonly LayerEntry[] = Object.freeze([
  entry("core", 0),
  entry("bash", 0),
  entry("sandbox", 1),
  entry("coreutils", 2),
  entry("fs-tools", 2),
  entry("shell-safe", 3, true),
  entry("shell-host", 3, true),
  entry("shell-brush", 3, true),
  entry("facade", 4),
  entry("mcp", 5),
  entry("adapters", 6),
]);

export function layerByDirectory(directory: string): LayerEntry | undefined {
  return LAYERS.find((candidate) => candidate.directory === directory);
}

export function layerByPackageName(packageName: string): LayerEntry | undefined {
  return LAYERS.find((candidate) => candidate.packageName === packageName);
}
